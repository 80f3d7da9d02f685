// The concurrency section: per-launch start/end against the H100 as a text table, JSON and report Gantt charts.
#include "experiments/concurrency/view.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "gpusched/charts/svg_format.h"
#include "gpusched/validation/section_registry.h"
#include "gpusched/validation/table_columns.h"
#include "report_html.h"

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

/// One launch of one case: a row of the table.
struct LaunchRow {
    const ConcurrencyCase* c;
    std::size_t k;
    const ConcurrencyLaunch& launch() const { return c->launches[k]; }
};

std::vector<LaunchRow> launch_rows(const std::vector<ConcurrencyCase>& cases) {
    std::vector<LaunchRow> rows;
    for (const auto& c : cases)
        for (std::size_t k = 0; k < c.launches.size(); ++k) rows.push_back({&c, k});
    return rows;
}

/// A row per launch: text, JSON (each case's "launches") and the report's table.
const TableColumns<LaunchRow>& launch_columns() {
    using R = LaunchRow;
    const auto of = [](auto member) { return [member](const R& r) { return r.launch().*member; }; };
    static const TableColumns<R> columns{
        text_column<R>({"case", "case", ""}, [](const R& r) { return r.c->name; }),
        integer_column<R>({"launch", "launch", "launch"}, of(&ConcurrencyLaunch::launch)),
        text_column<R>({"kernel", "kernel", "kernel"}, of(&ConcurrencyLaunch::kernel)),
        json_column<R>("stream", of(&ConcurrencyLaunch::stream)),
        integer_column<R>({"priority", "priority", "priority"}, of(&ConcurrencyLaunch::priority)),
        integer_column<R>({"blocks", "blocks", "blocks"}, of(&ConcurrencyLaunch::blocks)),
        decimal_column<R>({"start_us", "start us", "measured_start_us"}, of(&ConcurrencyLaunch::measured_start_us), 3),
        decimal_column<R>({"sim_start_us", "simulated", "simulated_start_us"}, of(&ConcurrencyLaunch::simulated_start_us), 3),
        decimal_column<R>({"start_err_%", "error %", "start_error_percent"}, [](const R& r) { return r.c->start_error_percent(r.k); }, 2)
            .red_when([](const R& r) { return std::abs(r.c->start_error_percent(r.k)) > kLaunchTargetPercent; }),
        decimal_column<R>({"end_us", "end us", "measured_end_us"}, of(&ConcurrencyLaunch::measured_end_us), 3),
        decimal_column<R>({"sim_end_us", "simulated", "simulated_end_us"}, of(&ConcurrencyLaunch::simulated_end_us), 3),
        decimal_column<R>({"end_err_%", "error %", "end_error_percent"}, [](const R& r) { return r.c->end_error_percent(r.k); }, 2)
            .red_when([](const R& r) { return std::abs(r.c->end_error_percent(r.k)) > kLaunchTargetPercent; }),
        shown_column<R>({"h100_spread_%", "H100 spread % (start/end)", ""}, [](const R& r) { return spread_text(*r.c, r.launch()); }),
        json_column<R>("h100_start_spread_us", of(&ConcurrencyLaunch::start_spread_us)),
        json_column<R>("h100_end_spread_us", of(&ConcurrencyLaunch::end_spread_us)),
    };
    return columns;
}

}  // namespace

ConcurrencyView::ConcurrencyView(std::vector<ConcurrencyCase> cases, std::string dir, std::string gpu, std::string policy)
    : cases_(std::move(cases)), dir_(std::move(dir)), gpu_(std::move(gpu)), policy_(std::move(policy)) {}

void ConcurrencyView::print_text(std::ostream& out) const {
    out << "\nconcurrency replay of " << dir_ << " on " << gpu_ << " with " << policy_ << "\n";
    launch_columns().print_text(out, launch_rows(cases_));
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
        for (std::size_t k = 0; k < c.launches.size(); ++k) jc["launches"].push_back(launch_columns().json({&c, k}));
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
                    "within 5% of their case's span (worst " + fixed(t.worst, 2) + "%).</p>\n";
    h += launch_columns().html(launch_rows(cases_));
    h += "<p>Times from the case's first block start; errors in % of the case's measured span (red: beyond "
         "5%). Priority: CUDA's number (0 least, -5 greatest on the H100). H100 spread: the largest minus the smallest "
         "over the runner's repetitions.</p>\n";
    for (const auto& c : cases_) {
        h += "<section>\n<h3>" + charts::escape_xml(c.name) + "</h3>\n<p>span " + fixed(c.measured_span_us, 3) +
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

namespace {
const SectionRegistration concurrency_registration{20, [] { return std::make_unique<ConcurrencySection>(); }};
}  // namespace

}  // namespace gpusched::validation
