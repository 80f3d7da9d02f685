// The apsp-timelines section: whole APSP runs as a text table, JSON and report table and Gantt charts.
#include "gpusched/validation/sections/apsp_timelines_section.h"

#include <cmath>
#include <filesystem>
#include <vector>

#include "gpusched/report/svg_format.h"
#include "../report_html.h"

namespace gpusched::validation {

namespace {

/// "measured / simulated" of one statistic, red when they differ by more than 25%.
std::string pair_cell(double measured, double simulated, int digits) {
    const bool bad = measured > 0 && std::abs(simulated - measured) > 0.25 * measured;
    return cell(fixed(measured, digits) + " / " + fixed(simulated, digits), bad);
}

void print_apsp_timelines(std::ostream& out, const ApspTimelineComparison& s, const std::string& dir,
                          const std::string& policy) {
    out << "\nAPSP block timelines of " << dir << " (whole runs, every launch queued; Init + the APSP launches "
           "simulated uncalibrated, shared execution, " << policy << "); columns measured/simulated, us\n";
    const auto pair = [](double m, double sim) { return fixed(m, 2) + "/" + fixed(sim, 2); };
    report::TextTable t({"case", "launches", "blocks", "overhead_%", "span_us", "span_err_%", "launch_span_us", "block_us",
                         "gap_us", "waves", "misplaced"},
                        {false, true, true, true, true, true, true, true, true, true, true});
    for (const auto& c : s.cases)
        t.add_row({c.name, std::to_string(c.launches), std::to_string(c.measured.blocks), fixed(c.overhead_percent, 2),
                   pair(c.measured.span_us, c.simulated.span_us), fixed(c.span_error_percent, 1),
                   pair(c.measured.launch_span_median_us, c.simulated.launch_span_median_us),
                   pair(c.measured.block_median_us, c.simulated.block_median_us),
                   pair(c.measured.gap_median_us, c.simulated.gap_median_us),
                   std::to_string(c.measured.waves) + "/" + std::to_string(c.simulated.waves), std::to_string(c.misplaced)});
    t.print(out);
    out << "launch_span, block, gap: medians over the APSP launches (gap: last block end of launch k -> first block start "
           "of k+1); overhead: instrumented vs plain whole run (runner); misplaced: blocks on another SM, per launch, "
           "summed; block counts "
        << (s.blocks_match ? "identical to the runner's" : "DIFFER from the runner's") << "\n";
}

nlohmann::ordered_json apsp_timelines_json(const ApspTimelineComparison& s) {
    const auto stats = [](const ApspTimelineStats& x) {
        return nlohmann::ordered_json{{"blocks", x.blocks},
                                      {"span_us", x.span_us},
                                      {"launch_span_median_us", x.launch_span_median_us},
                                      {"block_median_us", x.block_median_us},
                                      {"gap_median_us", x.gap_median_us},
                                      {"gap_min_us", x.gap_min_us},
                                      {"gap_max_us", x.gap_max_us},
                                      {"waves", x.waves},
                                      {"sms", x.sms}};
    };
    nlohmann::ordered_json j{{"blocks_match", s.blocks_match}, {"misplaced_blocks", s.total_misplaced}};
    for (const auto& c : s.cases)
        j["cases"].push_back({{"case", c.name},
                              {"workload_spec", c.workload_spec},
                              {"n", c.n},
                              {"block", c.block},
                              {"launches", c.launches},
                              {"blocks_per_launch", c.blocks_per_launch},
                              {"blocks_per_sm", c.blocks_per_sm},
                              {"blocks_match", c.blocks_match},
                              {"overhead_percent", c.overhead_percent},
                              {"measured", stats(c.measured)},
                              {"simulated", stats(c.simulated)},
                              {"span_error_percent", c.span_error_percent},
                              {"launch_span_error_percent", c.launch_span_error_percent},
                              {"block_error_percent", c.block_error_percent},
                              {"gap_error_percent", c.gap_error_percent},
                              {"misplaced_blocks", c.misplaced}});
    return j;
}

std::string apsp_timeline_section(const ApspTimelineComparison& s) {
    std::string h = "<h1>APSP block timelines</h1>\n<section id=\"apsp-timelines\">\n<p>" + std::to_string(s.cases.size()) +
                    " whole runs measured with every launch queued behind a gate kernel (thread 0 of each block "
                    "records its SM, entry and exit), each simulated uncalibrated as the curves are: the runner's Init "
                    "launch, then the APSP launches, queued, <code>shared</code> execution. Simulated block counts " +
                    (s.blocks_match ? "equal the measured ones in every launch" : "<b>differ</b> from the measured ones") +
                    "; " + std::to_string(s.total_misplaced) + " blocks on another SM in all (summed over launches). Cells: "
                    "measured / simulated, us (red: more than 25% apart).</p>\n<table>\n<tr><th>case</th><th>launches</th>"
                    "<th>blocks per launch</th><th>instrumentation overhead %</th><th>whole span</th><th>span error %</th>"
                    "<th>launch span, median</th><th>block duration, median</th><th>launch gap, median</th><th>waves</th>"
                    "<th>blocks on another SM</th></tr>\n";
    for (const auto& c : s.cases)
        h += "<tr>" + cell(c.name) + cell(std::to_string(c.launches)) + cell(std::to_string(c.blocks_per_launch)) +
             cell(fixed(c.overhead_percent, 2)) + pair_cell(c.measured.span_us, c.simulated.span_us, 2) +
             cell(fixed(c.span_error_percent, 1), std::abs(c.span_error_percent) > 25) +
             pair_cell(c.measured.launch_span_median_us, c.simulated.launch_span_median_us, 2) +
             pair_cell(c.measured.block_median_us, c.simulated.block_median_us, 2) +
             pair_cell(c.measured.gap_median_us, c.simulated.gap_median_us, 2) +
             cell(std::to_string(c.measured.waves) + " / " + std::to_string(c.simulated.waves)) +
             cell(std::to_string(c.misplaced)) + "</tr>\n";
    h += "</table>\n<p>Launch span: a launch's first block start to its last block end (APSP launches, not Init). Launch "
         "gap: the last block end of launch k to the first block start of launch k+1. Waves: the most blocks one SM ran "
         "in one launch over the blocks that fit on an SM, rounded up.</p>\n";
    for (const auto& c : s.cases) {
        if (c.measured_blocks.empty()) continue;
        const std::vector<int> sms = sms_of(c.measured_blocks, c.simulated_blocks);
        h += "<details><summary>" + report::escape_xml(c.name) + ": " + std::to_string(c.measured.blocks) +
             " blocks in " + std::to_string(c.launches) + " launches, span " + fixed(c.measured.span_us, 1) +
             " us measured, " + fixed(c.simulated.span_us, 1) + " us simulated</summary>\n" +
             sm_gantt(c.name + ": measured", c.measured_blocks, sms, GanttColour::launch) + "\n" +
             sm_gantt(c.name + ": simulated", c.simulated_blocks, sms, GanttColour::launch) + "\n</details>\n";
    }
    return h + "</section>\n";
}

}  // namespace

ApspTimelinesView::ApspTimelinesView(ApspTimelineComparison comparison, std::string dir, std::string policy)
    : comparison_(std::move(comparison)), dir_(std::move(dir)), policy_(std::move(policy)) {}

void ApspTimelinesView::print_text(std::ostream& out) const { print_apsp_timelines(out, comparison_, dir_, policy_); }

void ApspTimelinesView::add_json(nlohmann::ordered_json& top) const {
    top["apsp_timelines"] = apsp_timelines_json(comparison_);
}

std::string ApspTimelinesView::report_part() const { return apsp_timeline_section(comparison_); }

std::string ApspTimelinesSection::description() const {
    return "whole APSP runs' block timelines (every launch queued), uncalibrated";
}

std::unique_ptr<SectionView> ApspTimelinesSection::run(const std::string& data_dir, const SectionSettings& settings) const {
    const std::string dir = (std::filesystem::path(data_dir) / "apsp_timeline").string();
    return std::make_unique<ApspTimelinesView>(
        validate_apsp_timelines(dir, settings.gpu, settings.replay_policy, settings.keep_blocks), dir, settings.replay_policy);
}

}  // namespace gpusched::validation
