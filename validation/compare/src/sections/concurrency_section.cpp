// The concurrency section: per-launch start/end against the H100 as a text table, JSON and report Gantt charts.
#include "gpusched/validation/sections/concurrency_section.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "gpusched/report/svg_format.h"
#include "../report_html.h"

namespace gpusched::validation {

namespace {

constexpr double kLaunchTargetPercent = 5.0;  ///< issue 21's target: each start and end within 5% of the case's span

struct ConcurrencyTotals {
    int launches = 0;
    int within = 0;  ///< start and end both within kLaunchTargetPercent
    double worst = 0;
};

ConcurrencyTotals totals_of(const std::vector<ConcurrencyCase>& cases) {
    ConcurrencyTotals t;
    for (const auto& c : cases)
        for (std::size_t k = 0; k < c.launches.size(); ++k) {
            const double worst = std::max(std::abs(c.start_error_percent(k)), std::abs(c.end_error_percent(k)));
            ++t.launches;
            t.within += worst <= kLaunchTargetPercent ? 1 : 0;
            t.worst = std::max(t.worst, worst);
        }
    return t;
}

/// The H100's spread over its repetitions, start/end, in % of the case's span.
std::string spread_text(const ConcurrencyCase& c, const ConcurrencyLaunch& l) {
    return fixed(100.0 * l.start_spread_us / c.measured_span_us, 2) + "/" + fixed(100.0 * l.end_spread_us / c.measured_span_us, 2);
}

}  // namespace

ConcurrencyView::ConcurrencyView(std::vector<ConcurrencyCase> cases, std::string dir, std::string gpu, std::string policy)
    : cases_(std::move(cases)), dir_(std::move(dir)), gpu_(std::move(gpu)), policy_(std::move(policy)) {}

void ConcurrencyView::print_text(std::ostream& out) const {
    out << "\nconcurrency replay of " << dir_ << " on " << gpu_ << " with " << policy_ << "\n";
    report::TextTable table({"case", "launch", "kernel", "priority", "blocks", "start_us", "sim_start_us", "start_err_%",
                             "end_us", "sim_end_us", "end_err_%", "h100_spread_%"},
                            {false, true, false, true, true, true, true, true, true, true, true, true});
    for (const auto& c : cases_)
        for (std::size_t k = 0; k < c.launches.size(); ++k) {
            const auto& l = c.launches[k];
            table.add_row({c.name, std::to_string(l.launch), l.kernel, std::to_string(l.priority), std::to_string(l.blocks),
                           fixed(l.measured_start_us, 3), fixed(l.simulated_start_us, 3), fixed(c.start_error_percent(k), 2),
                           fixed(l.measured_end_us, 3), fixed(l.simulated_end_us, 3), fixed(c.end_error_percent(k), 2),
                           spread_text(c, l)});
        }
    table.print(out);
    const ConcurrencyTotals t = totals_of(cases_);
    out << "errors in % of the case's measured span (first start to last end); priority in CUDA's numbers; "
           "h100_spread_%: start/end spread over the H100's repetitions\n"
        << cases_.size() << " cases, " << t.launches << " launches: " << t.within << " with start and end within "
        << fixed(kLaunchTargetPercent, 0) << "% of their case's span (worst " << fixed(t.worst, 2) << "%)\n";
}

void ConcurrencyView::add_json(nlohmann::ordered_json& top) const {
    nlohmann::ordered_json j;
    j["data"] = dir_;
    j["cases"] = nlohmann::ordered_json::array();
    for (const auto& c : cases_) {
        nlohmann::ordered_json jc{{"case", c.name}, {"measured_span_us", c.measured_span_us}, {"simulated_span_us", c.simulated_span_us}};
        jc["launches"] = nlohmann::ordered_json::array();
        for (std::size_t k = 0; k < c.launches.size(); ++k) {
            const auto& l = c.launches[k];
            jc["launches"].push_back({{"launch", l.launch}, {"kernel", l.kernel}, {"stream", l.stream}, {"priority", l.priority},
                                      {"blocks", l.blocks}, {"measured_start_us", l.measured_start_us},
                                      {"simulated_start_us", l.simulated_start_us}, {"start_error_percent", c.start_error_percent(k)},
                                      {"measured_end_us", l.measured_end_us}, {"simulated_end_us", l.simulated_end_us},
                                      {"end_error_percent", c.end_error_percent(k)}, {"h100_start_spread_us", l.start_spread_us},
                                      {"h100_end_spread_us", l.end_spread_us}});
        }
        j["cases"].push_back(std::move(jc));
    }
    const ConcurrencyTotals t = totals_of(cases_);
    j["launches"] = t.launches;
    j["within_5_percent"] = t.within;
    j["worst_error_percent"] = t.worst;
    top["concurrency"] = std::move(j);
}

std::string ConcurrencyView::report_part() const {
    const ConcurrencyTotals t = totals_of(cases_);
    std::string h = "<h2>Concurrent kernels and stream priorities</h2>\n<p>" + std::to_string(cases_.size()) + " cases, " +
                    std::to_string(t.launches) + " launches, each block replayed with its measured duration on its "
                    "stream and CUDA priority: " + std::to_string(t.within) + " launches with first start and last end "
                    "within 5% of their case's span (worst " + fixed(t.worst, 2) + "%).</p>\n<table>\n";
    h += header({"case", "launch", "kernel", "priority", "blocks", "start us", "simulated", "error %", "end us", "simulated",
                 "error %", "H100 spread % (start/end)"});
    for (const auto& c : cases_)
        for (std::size_t k = 0; k < c.launches.size(); ++k) {
            const auto& l = c.launches[k];
            const double es = c.start_error_percent(k);
            const double ee = c.end_error_percent(k);
            h += "<tr>" + cell(c.name) + cell(std::to_string(l.launch)) + cell(l.kernel) + cell(std::to_string(l.priority)) +
                 cell(std::to_string(l.blocks)) + cell(fixed(l.measured_start_us, 3)) + cell(fixed(l.simulated_start_us, 3)) +
                 cell(fixed(es, 2), std::abs(es) > kLaunchTargetPercent) + cell(fixed(l.measured_end_us, 3)) +
                 cell(fixed(l.simulated_end_us, 3)) + cell(fixed(ee, 2), std::abs(ee) > kLaunchTargetPercent) +
                 cell(spread_text(c, l)) + "</tr>\n";
        }
    h += "</table>\n<p>Times from the case's first block start; errors in % of the case's measured span (red: beyond "
         "5%). Priority: CUDA's number (0 least, -5 greatest on the H100). H100 spread: the largest minus the smallest "
         "over the runner's repetitions.</p>\n";
    for (const auto& c : cases_) {
        h += "<section>\n<h3>" + report::escape_xml(c.name) + "</h3>\n<p>span " + fixed(c.measured_span_us, 3) +
             " us measured, " + fixed(c.simulated_span_us, 3) + " us simulated; colour = launch.</p>\n";
        if (c.measured_blocks.empty() && c.simulated_blocks.empty()) {
            h += "<p>(no per-block timelines kept)</p>\n</section>\n";
            continue;
        }
        const std::vector<int> sms = sms_of(c.measured_blocks, c.simulated_blocks);
        h += sm_gantt(c.name + ": measured", c.measured_blocks, sms, GanttColour::launch) + "\n";
        h += sm_gantt(c.name + ": simulated", c.simulated_blocks, sms, GanttColour::launch) + "\n</section>\n";
    }
    return h;
}

std::string ConcurrencySection::description() const {
    return "concurrent kernels on streams of every priority level replayed: each launch's first start and last end";
}

std::unique_ptr<SectionView> ConcurrencySection::run(const std::string& data_dir, const SectionSettings& settings) const {
    const std::string dir = (std::filesystem::path(data_dir) / "concurrency").string();
    return std::make_unique<ConcurrencyView>(validate_concurrency(dir, settings.gpu, settings.replay_policy, settings.keep_blocks),
                                             dir, settings.gpu.name, settings.replay_policy);
}

}  // namespace gpusched::validation
