// The curves section: runtime curves as a text table, JSON and report charts.
#include "gpusched/validation/sections/curves_section.h"

#include <filesystem>

#include "gpusched/report/line_chart.h"
#include "gpusched/report/svg_format.h"
#include "../report_html.h"

namespace gpusched::validation {

namespace {

/// Measured and calibrated simulated times over the points with n in [lo, hi]; jump markers on request.
std::string curve_chart(const CurveComparison& c, const std::string& title, int lo, int hi, bool log_y, bool markers) {
    report::LineChart chart;
    chart.title = title;
    chart.x_label = "n";
    chart.y_label = "run time (us)";
    chart.log_y = log_y;
    report::LineSeries measured{"measured", {}, true, "", 1.5, std::nullopt};
    report::LineSeries simulated{"simulated x " + fixed(c.factor, 3), {}, true, "6 3", 1.5, std::nullopt};
    for (const auto& p : c.points) {
        if (p.n < lo || p.n > hi) continue;
        measured.points.push_back({static_cast<double>(p.n), p.measured_us});
        simulated.points.push_back({static_cast<double>(p.n), p.calibrated_us});
    }
    chart.series = {measured, simulated};
    if (markers) {
        for (const auto& j : c.measured_jumps) chart.markers.push_back({j.n - 0.5, "m" + std::to_string(j.n)});
        for (const auto& j : c.simulated_jumps) chart.markers.push_back({j.n - 0.5, "s" + std::to_string(j.n)});
    }
    return inline_svg(report::render_svg(chart));
}

std::string curve_section(const CurveComparison& c) {
    const std::string title = c.kernel + ", " + std::to_string(c.block) + "x" + std::to_string(c.block) + " blocks, " +
                              (c.issue == "queued" ? "launches queued first" : "launched by the host while timed");
    std::string h = "<section id=\"curve-" + c.kernel + "-" + c.issue + "-" + std::to_string(c.block) + "\">\n<h2>" + report::escape_xml(title) + "</h2>\n";
    h += "<p>Calibrated at n = " + std::to_string(c.reference_n) + " (factor " + fixed(c.factor, 3) +
         "): median |error| " + fixed(c.median_abs_error_percent, 1) + "%, max " + fixed(c.max_abs_error_percent, 1) +
         "%. Jumps (step &gt; 4%) measured at";
    for (const auto& j : c.measured_jumps) h += " " + std::to_string(j.n);
    h += " (" + std::to_string(c.measured_jumps_located) + " located by the simulation), simulated at";
    for (const auto& j : c.simulated_jumps) h += " " + std::to_string(j.n);
    h += " (" + std::to_string(c.simulated_jumps_located) + " found in the measurement).";
    if (c.repeat_sweeps > 0) {
        h += " Reproducible in all " + std::to_string(c.repeat_sweeps + 1) + " sweeps:";
        for (const auto& j : c.reproducible_jumps) h += " " + std::to_string(j.n);
        h += " (" + std::to_string(c.reproducible_jumps_located) + " located by the simulation).";
    }
    h += " Markers: m = measured jump, s = simulated jump.</p>\n";
    // The section heading names the curve; chart titles stay short enough for the chart's width.
    const std::string name = c.kernel + " " + std::to_string(c.block) + "x" + std::to_string(c.block) + ", " + c.issue;
    h += curve_chart(c, name + ": dense sweep, jumps marked", 0, 200, false, true) + "\n";
    h += curve_chart(c, name + ": every size", 0, 1 << 30, true, false) + "\n</section>\n";
    return h;
}

/// "located/count located: n n n" of a list of jumps.
std::string jump_list(const std::vector<CurveJump>& jumps, int located) {
    std::string s = std::to_string(located) + "/" + std::to_string(jumps.size()) + " located:";
    for (const auto& j : jumps) s += " " + std::to_string(j.n);
    return s;
}

}  // namespace

CurvesView::CurvesView(std::vector<CurveComparison> curves, std::string dir)
    : curves_(std::move(curves)), dir_(std::move(dir)) {}

void CurvesView::print_text(std::ostream& out) const {
    if (curves_.empty()) return;
    out << "\nruntime curves of " << dir_ << " (shared execution, one-point calibration at the reference n)\n";
    report::TextTable curve_table({"kernel", "issue", "block", "points", "ref_n", "factor", "median_|err|_%", "max_|err|_%",
                                           "measured_jumps", "simulated_jumps", "reproducible_jumps"},
                                          {false, false, true, true, true, true, true, true, false, false, false});
    for (const auto& c : curves_)
        curve_table.add_row({c.kernel, c.issue, std::to_string(c.block), std::to_string(c.points.size()),
                             std::to_string(c.reference_n), fixed(c.factor, 3), fixed(c.median_abs_error_percent, 1),
                             fixed(c.max_abs_error_percent, 1), jump_list(c.measured_jumps, c.measured_jumps_located),
                             jump_list(c.simulated_jumps, c.simulated_jumps_located),
                             c.repeat_sweeps == 0 ? "-" : jump_list(c.reproducible_jumps, c.reproducible_jumps_located)});
    curve_table.print(out);
    out << "A jump is a step of more than 4% from n-1 to n; located = the other curve jumps within one step.\n"
           "reproducible_jumps: the measured jumps that every repeated sweep (curves/repeats/) has at the same n too.\n"
           "issue: host-calls = launched by the host inside the timed region; queued = every launch queued first.\n";
}

void CurvesView::add_json(nlohmann::ordered_json& top) const {
    for (const auto& c : curves_) {
        nlohmann::ordered_json curve{{"kernel", c.kernel},
                                     {"issue", c.issue},
                                     {"block", c.block},
                                     {"reference_n", c.reference_n},
                                     {"factor", c.factor},
                                     {"median_abs_error_percent", c.median_abs_error_percent},
                                     {"max_abs_error_percent", c.max_abs_error_percent},
                                     {"measured_jumps_located", c.measured_jumps_located},
                                     {"simulated_jumps_located", c.simulated_jumps_located}};
        for (const auto& jump : c.measured_jumps) curve["measured_jumps"].push_back(jump.n);
        for (const auto& jump : c.simulated_jumps) curve["simulated_jumps"].push_back(jump.n);
        if (c.repeat_sweeps > 0) {
            curve["repeat_sweeps"] = c.repeat_sweeps;
            curve["reproducible_jumps"] = nlohmann::ordered_json::array();
            for (const auto& jump : c.reproducible_jumps) curve["reproducible_jumps"].push_back(jump.n);
            curve["reproducible_jumps_located"] = c.reproducible_jumps_located;
        }
        for (const auto& p : c.points)
            curve["points"].push_back({{"n", p.n}, {"measured_us", p.measured_us}, {"simulated_us", p.simulated_us},
                                       {"calibrated_us", p.calibrated_us}, {"error_percent", p.error_percent}});
        top["curves"].push_back(curve);
    }
}

std::string CurvesView::report_part() const {
    if (curves_.empty()) return "";
    std::string h = "<h1>Runtime curves</h1>\n";
    for (const auto& c : curves_) h += curve_section(c);
    return h;
}

std::string CurvesSection::description() const {
    return "APSP runtime curves over n, calibrated at one point, their jumps located";
}

std::unique_ptr<SectionView> CurvesSection::run(const std::string& data_dir, const SectionSettings& settings) const {
    const std::string dir = (std::filesystem::path(data_dir) / input()).string();
    return std::make_unique<CurvesView>(validate_curve_dir(dir, settings.gpu, settings.policy), dir);
}

}  // namespace gpusched::validation
