// The apsp-timelines section: whole APSP runs as a text table, JSON and report table and Gantt charts.
#include "experiments/apsp_timelines/view.h"

#include <cmath>
#include <filesystem>
#include <vector>

#include "gpusched/charts/svg_format.h"
#include "gpusched/validation/section_registry.h"
#include "gpusched/validation/table_columns.h"
#include "report_html.h"

namespace gpusched::validation {

namespace {

using Case = ApspTimelineCase;

/// One statistic measured and simulated: "m/s" in the text, "m / s" in HTML, red when they differ by more than 25%.
Column<Case> pair_column(ColumnNames names, double ApspTimelineStats::*stat) {
    return shown_column<Case>(std::move(names),
                              [stat](const Case& c) { return fixed(c.measured.*stat, 2) + "/" + fixed(c.simulated.*stat, 2); })
        .in_html_as([stat](const Case& c) { return fixed(c.measured.*stat, 2) + " / " + fixed(c.simulated.*stat, 2); })
        .red_when([stat](const Case& c) {
            const double measured = c.measured.*stat, simulated = c.simulated.*stat;
            return measured > 0 && std::abs(simulated - measured) > 0.25 * measured;
        });
}

nlohmann::ordered_json stats_json(const ApspTimelineStats& x) {
    return nlohmann::ordered_json{{"blocks", x.blocks},
                                  {"span_us", x.span_us},
                                  {"launch_span_median_us", x.launch_span_median_us},
                                  {"block_median_us", x.block_median_us},
                                  {"gap_median_us", x.gap_median_us},
                                  {"gap_min_us", x.gap_min_us},
                                  {"gap_max_us", x.gap_max_us},
                                  {"waves", x.waves},
                                  {"sms", x.sms}};
}

/// A row per case: text, JSON "cases" and the report's table.
const TableColumns<Case>& case_columns() {
    using S = ApspTimelineStats;
    static const TableColumns<Case> columns{
        text_column<Case>({"case", "case", "case"}, &Case::name),
        json_column<Case>("workload_spec", &Case::workload_spec),
        json_column<Case>("n", &Case::n),
        json_column<Case>("block", &Case::block),
        integer_column<Case>({"launches", "launches", "launches"}, &Case::launches),
        shown_column<Case>({"blocks", "blocks per launch", "blocks_per_launch"}, [](const Case& c) { return std::to_string(c.measured.blocks); })
            .in_html_as([](const Case& c) { return std::to_string(c.blocks_per_launch); })
            .in_json_as([](const Case& c) { return nlohmann::ordered_json(c.blocks_per_launch); }),
        json_column<Case>("blocks_per_sm", &Case::blocks_per_sm),
        json_column<Case>("blocks_match", &Case::blocks_match),
        decimal_column<Case>({"overhead_%", "instrumentation overhead %", "overhead_percent"}, &Case::overhead_percent, 2),
        json_column<Case>("measured", [](const Case& c) { return stats_json(c.measured); }),
        json_column<Case>("simulated", [](const Case& c) { return stats_json(c.simulated); }),
        pair_column({"span_us", "whole span", ""}, &S::span_us),
        decimal_column<Case>({"span_err_%", "span error %", "span_error_percent"}, &Case::span_error_percent, 1)
            .red_when([](const Case& c) { return std::abs(c.span_error_percent) > 25; }),
        json_column<Case>("launch_span_error_percent", &Case::launch_span_error_percent),
        json_column<Case>("block_error_percent", &Case::block_error_percent),
        json_column<Case>("gap_error_percent", &Case::gap_error_percent),
        pair_column({"launch_span_us", "launch span, median", ""}, &S::launch_span_median_us),
        pair_column({"block_us", "block duration, median", ""}, &S::block_median_us),
        pair_column({"gap_us", "launch gap, median", ""}, &S::gap_median_us),
        shown_column<Case>({"waves", "waves", ""},
                           [](const Case& c) { return std::to_string(c.measured.waves) + "/" + std::to_string(c.simulated.waves); })
            .in_html_as([](const Case& c) { return std::to_string(c.measured.waves) + " / " + std::to_string(c.simulated.waves); }),
        integer_column<Case>({"misplaced", "blocks on another SM", "misplaced_blocks"}, &Case::misplaced),
    };
    return columns;
}

void print_apsp_timelines(std::ostream& out, const ApspTimelineComparison& s, const std::string& dir,
                          const std::string& policy) {
    out << "\nAPSP block timelines of " << dir << " (whole runs, every launch queued; Init + the APSP launches "
           "simulated uncalibrated, shared execution, " << policy << "); columns measured/simulated, us\n";
    case_columns().print_text(out, s.cases);
    out << "launch_span, block, gap: medians over the APSP launches (gap: last block end of launch k -> first block start "
           "of k+1); overhead: instrumented vs plain whole run (runner); misplaced: blocks on another SM, per launch, "
           "summed; block counts "
        << (s.blocks_match ? "identical to the runner's" : "DIFFER from the runner's") << "\n";
}

nlohmann::ordered_json apsp_timelines_json(const ApspTimelineComparison& s) {
    nlohmann::ordered_json j{{"blocks_match", s.blocks_match}, {"misplaced_blocks", s.total_misplaced}};
    for (const auto& c : s.cases) j["cases"].push_back(case_columns().json(c));
    return j;
}

std::string apsp_timeline_section(const ApspTimelineComparison& s) {
    std::string h = "<h1>APSP block timelines</h1>\n<section id=\"apsp-timelines\">\n<p>" + std::to_string(s.cases.size()) +
                    " whole runs measured with every launch queued behind a gate kernel (thread 0 of each block "
                    "records its SM, entry and exit), each simulated uncalibrated as the curves are: the runner's Init "
                    "launch, then the APSP launches, queued, <code>shared</code> execution. Simulated block counts " +
                    (s.blocks_match ? "equal the measured ones in every launch" : "<b>differ</b> from the measured ones") +
                    "; " + std::to_string(s.total_misplaced) + " blocks on another SM in all (summed over launches). Cells: "
                    "measured / simulated, us (red: more than 25% apart).</p>\n";
    h += case_columns().html(s.cases);
    h += "<p>Launch span: a launch's first block start to its last block end (APSP launches, not Init). Launch "
         "gap: the last block end of launch k to the first block start of launch k+1. Waves: the most blocks one SM ran "
         "in one launch over the blocks that fit on an SM, rounded up.</p>\n";
    for (const auto& c : s.cases) {
        if (c.measured_blocks.empty()) continue;
        const std::vector<int> sms = sms_of(c.measured_blocks, c.simulated_blocks);
        h += "<details><summary>" + charts::escape_xml(c.name) + ": " + std::to_string(c.measured.blocks) +
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

namespace {
const SectionRegistration apsp_timelines_registration{80, [] { return std::make_unique<ApspTimelinesSection>(); }};
}  // namespace

}  // namespace gpusched::validation
