// The curves section: runtime curves as a text table, JSON and report charts.
#include "experiments/curves/view.h"

#include <filesystem>

#include "gpusched/charts/line_chart.h"
#include "gpusched/charts/svg_format.h"
#include "gpusched/validation/section_registry.h"
#include "gpusched/validation/table_columns.h"
#include "report_html.h"

namespace gpusched::validation {

namespace {

/// Measured and calibrated simulated times over the points with n in [lo, hi]; jump markers on request.
std::string curve_chart(const CurveComparison& c, const std::string& title, int lo, int hi, bool log_y, bool markers) {
    charts::LineChart chart;
    chart.title = title;
    chart.x_label = "n";
    chart.y_label = "run time (us)";
    chart.log_y = log_y;
    charts::LineSeries measured{"measured", {}, true, "", 1.5, std::nullopt};
    charts::LineSeries simulated{"simulated x " + fixed(c.factor, 3), {}, true, "6 3", 1.5, std::nullopt};
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
    return inline_svg(charts::render_svg(chart));
}

std::string curve_section(const CurveComparison& c) {
    const std::string title = c.kernel + ", " + std::to_string(c.block) + "x" + std::to_string(c.block) + " blocks, " +
                              (c.issue == "queued" ? "launches queued first" : "launched by the host while timed");
    std::string h = "<section id=\"curve-" + c.kernel + "-" + c.issue + "-" + std::to_string(c.block) + "\">\n<h2>" + charts::escape_xml(title) + "</h2>\n";
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

/// The n of each jump.
std::vector<int> jump_numbers(const std::vector<CurveJump>& jumps) {
    std::vector<int> n;
    for (const auto& j : jumps) n.push_back(j.n);
    return n;
}

/// A row per curve: text, JSON "curves" (less its points) and, as the report shows the curves as charts, no HTML.
const TableColumns<CurveComparison>& curve_columns() {
    using C = CurveComparison;
    const auto repeated = [](const C& c) { return c.repeat_sweeps > 0; };
    static const TableColumns<C> columns{
        text_column<C>({"kernel", "", "kernel"}, &C::kernel),
        text_column<C>({"issue", "", "issue"}, &C::issue),
        integer_column<C>({"block", "", "block"}, &C::block),
        shown_column<C>({"points", "", ""}, [](const C& c) { return std::to_string(c.points.size()); }),
        integer_column<C>({"ref_n", "", "reference_n"}, &C::reference_n),
        decimal_column<C>({"factor", "", "factor"}, &C::factor, 3),
        decimal_column<C>({"median_|err|_%", "", "median_abs_error_percent"}, &C::median_abs_error_percent, 1),
        decimal_column<C>({"max_|err|_%", "", "max_abs_error_percent"}, &C::max_abs_error_percent, 1),
        json_column<C>("measured_jumps_located", &C::measured_jumps_located),
        json_column<C>("simulated_jumps_located", &C::simulated_jumps_located),
        shown_column<C>({"measured_jumps", "", ""}, [](const C& c) { return jump_list(c.measured_jumps, c.measured_jumps_located); },
                        Align::left),
        json_column<C>("measured_jumps", [](const C& c) { return jump_numbers(c.measured_jumps); })
            .present_when([](const C& c) { return !c.measured_jumps.empty(); }),
        shown_column<C>({"simulated_jumps", "", ""},
                        [](const C& c) { return jump_list(c.simulated_jumps, c.simulated_jumps_located); }, Align::left),
        json_column<C>("simulated_jumps", [](const C& c) { return jump_numbers(c.simulated_jumps); })
            .present_when([](const C& c) { return !c.simulated_jumps.empty(); }),
        json_column<C>("repeat_sweeps", &C::repeat_sweeps).present_when(repeated),
        shown_column<C>({"reproducible_jumps", "", ""},
                        [](const C& c) { return jump_list(c.reproducible_jumps, c.reproducible_jumps_located); }, Align::left)
            .present_when(repeated),
        json_column<C>("reproducible_jumps", [](const C& c) { return jump_numbers(c.reproducible_jumps); }).present_when(repeated),
        json_column<C>("reproducible_jumps_located", &C::reproducible_jumps_located).present_when(repeated),
    };
    return columns;
}

/// A row per point of a curve: JSON "points".
const TableColumns<CurvePoint>& point_columns() {
    using P = CurvePoint;
    static const TableColumns<P> columns{
        json_column<P>("n", &P::n),
        json_column<P>("measured_us", &P::measured_us),
        json_column<P>("simulated_us", &P::simulated_us),
        json_column<P>("calibrated_us", &P::calibrated_us),
        json_column<P>("error_percent", &P::error_percent),
    };
    return columns;
}

}  // namespace

CurvesView::CurvesView(std::vector<CurveComparison> curves, std::string dir)
    : curves_(std::move(curves)), dir_(std::move(dir)) {}

void CurvesView::print_text(std::ostream& out) const {
    if (curves_.empty()) return;
    out << "\nruntime curves of " << dir_ << " (shared execution, one-point calibration at the reference n)\n";
    curve_columns().print_text(out, curves_);
    out << "A jump is a step of more than 4% from n-1 to n; located = the other curve jumps within one step.\n"
           "reproducible_jumps: the measured jumps that every repeated sweep (curves/repeats/) has at the same n too.\n"
           "issue: host-calls = launched by the host inside the timed region; queued = every launch queued first.\n";
}

void CurvesView::add_json(nlohmann::ordered_json& top) const {
    for (const auto& c : curves_) {
        nlohmann::ordered_json curve = curve_columns().json(c);
        for (const auto& p : c.points) curve["points"].push_back(point_columns().json(p));
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

namespace {
const SectionRegistration curves_registration{30, [] { return std::make_unique<CurvesSection>(); }};
}  // namespace

}  // namespace gpusched::validation
