// The spmv section: SpMV configurations as text tables, JSON and a report chart, table and timelines.
#include "experiments/spmv/view.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <vector>

#include "gpusched/charts/line_chart.h"
#include "gpusched/charts/svg_format.h"
#include "gpusched/validation/section_registry.h"
#include "gpusched/validation/table_columns.h"
#include "report_html.h"

namespace gpusched::validation {

namespace {

const std::vector<std::string> kFormats{"csr", "ell", "coo", "hyb"};

std::string spmv_chart(const SpmvComparison& s) {
    charts::LineChart chart;
    chart.title = "SpMV, ~40k non-zeros: block span per matrix (1 = Dense ... 8 = Epidemiology)";
    chart.x_label = "matrix (Table IV order)";
    chart.y_label = "span (us)";
    chart.log_y = true;
    chart.width = 900;
    chart.height = 460;
    std::vector<std::string> matrices;
    for (const auto& p : s.points)
        if (p.matrix.size() > 4 && p.matrix.substr(p.matrix.size() - 4) == "-40k" &&
            std::find(matrices.begin(), matrices.end(), p.matrix) == matrices.end())
            matrices.push_back(p.matrix);
    for (std::size_t f = 0; f < kFormats.size(); ++f) {
        charts::LineSeries measured{kFormats[f] + " measured", {}, true, "", 1.5, f};
        charts::LineSeries simulated{kFormats[f] + " simulated x " + fixed(s.factor, 2), {}, true, "6 3", 1.5, f};
        for (std::size_t m = 0; m < matrices.size(); ++m)
            for (const auto& p : s.points)
                if (p.matrix == matrices[m] && p.format == kFormats[f]) {
                    measured.points.push_back({static_cast<double>(m + 1), p.measured_span_us});
                    simulated.points.push_back({static_cast<double>(m + 1), p.calibrated_span_us});
                }
        chart.series.push_back(measured);
        chart.series.push_back(simulated);
    }
    return inline_svg(charts::render_svg(chart));
}

/// A row per configuration: text, JSON "points" and the report's table.
const TableColumns<SpmvPoint>& point_columns() {
    using P = SpmvPoint;
    const auto has_timeline = [](const P& p) { return p.has_timeline; };
    static const TableColumns<P> columns{
        text_column<P>({"matrix", "matrix", "matrix"}, &P::matrix),
        text_column<P>({"format", "format", "format"}, &P::format),
        json_column<P>("rows", &P::rows),
        json_column<P>("nnz", &P::nnz),
        json_column<P>("launches", &P::launches),
        integer_column<P>({"blocks", "blocks", "blocks"}, &P::blocks),
        decimal_column<P>({"span_us", "span us", "measured_span_us"}, &P::measured_span_us, 3),
        json_column<P>("simulated_span_us", &P::simulated_span_us),
        decimal_column<P>({"sim_span_us", "simulated, calibrated", "calibrated_span_us"}, &P::calibrated_span_us, 3),
        decimal_column<P>({"span_err_%", "span error %", "span_error_percent"}, &P::span_error_percent, 1)
            .red_when([](const P& p) { return std::abs(p.span_error_percent) > 25; }),
        decimal_column<P>({"event_us", "event us", "measured_event_us"}, &P::measured_event_us, 3),
        json_column<P>("simulated_us", &P::simulated_us),
        decimal_column<P>({"sim_event_us", "simulated, calibrated", "calibrated_us"}, &P::calibrated_us, 3),
        decimal_column<P>({"event_err_%", "event error %", "event_error_percent"}, &P::event_error_percent, 1)
            .red_when([](const P& p) { return std::abs(p.event_error_percent) > 25; }),
        integer_column<P>({"misplaced", "blocks on another SM", "misplaced_blocks"}, &P::misplaced).present_when(has_timeline),
        decimal_column<P>({"start_ks", "start KS", "start_ks_distance"}, &P::start_distance, 3).present_when(has_timeline),
    };
    return columns;
}

/// A row per format: text, JSON "formats" and the report's table.
const TableColumns<SpmvFormatSummary>& format_columns() {
    using F = SpmvFormatSummary;
    static const TableColumns<F> columns{
        text_column<F>({"format", "format", "format"}, &F::format),
        integer_column<F>({"points", "points", "points"}, &F::points),
        decimal_column<F>({"median_|span_err|_%", "median |span error| %", "median_abs_span_error_percent"},
                          &F::median_abs_span_error_percent, 1),
        decimal_column<F>({"max_|span_err|_%", "max |span error| %", "max_abs_span_error_percent"},
                          &F::max_abs_span_error_percent, 1),
        decimal_column<F>({"median_event_err_%", "median event error %", "median_event_error_percent"},
                          &F::median_event_error_percent, 1),
    };
    return columns;
}

void print_spmv(std::ostream& out, const SpmvComparison& s, const std::string& dir) {
    out << "\nSpMV of " << dir << " (shared execution): block span calibrated once at " << s.reference_matrix << " "
        << s.reference_format << " (factor " << fixed(s.factor, 3) << ", applied to each launch's span, not to launch overheads)\n";
    point_columns().print_text(out, s.points);
    format_columns().print_text(out, s.formats);
    out << s.points.size() << " configurations: span median |error| " << fixed(s.median_abs_span_error_percent, 1)
        << "%, max " << fixed(s.max_abs_span_error_percent, 1) << "%; event time median |error| "
        << fixed(s.median_abs_event_error_percent, 1) << "%, max " << fixed(s.max_abs_event_error_percent, 1) << "%; "
        << s.timelines << " timelines, " << s.total_misplaced << " blocks on another SM in all; grids "
        << (s.grids_match ? "identical to the runner's" : "DIFFER from the runner's") << "\n";
}

nlohmann::ordered_json spmv_json(const SpmvComparison& s) {
    nlohmann::ordered_json j{{"reference_matrix", s.reference_matrix},
                             {"reference_format", s.reference_format},
                             {"factor", s.factor},
                             {"median_abs_span_error_percent", s.median_abs_span_error_percent},
                             {"max_abs_span_error_percent", s.max_abs_span_error_percent},
                             {"median_abs_event_error_percent", s.median_abs_event_error_percent},
                             {"max_abs_event_error_percent", s.max_abs_event_error_percent},
                             {"timelines", s.timelines},
                             {"misplaced_blocks", s.total_misplaced},
                             {"grids_match", s.grids_match}};
    for (const auto& f : s.formats) j["formats"].push_back(format_columns().json(f));
    for (const auto& p : s.points) j["points"].push_back(point_columns().json(p));
    return j;
}

std::string spmv_section(const SpmvComparison& s) {
    std::string h = "<h1>SpMV</h1>\n<section id=\"spmv\">\n<p>" + std::to_string(s.points.size()) +
                    " measured configurations (matrix x format, 256 threads), each simulated on the same matrix with "
                    "the <code>shared</code> execution model and calibrated once, at " + charts::escape_xml(s.reference_matrix + " " + s.reference_format) +
                    " (the median measured span; factor " + fixed(s.factor, 3) + ", applied to each launch's span, not to the "
                    "launch overheads). Block spans (first block start to last block end): median |error| " +
                    fixed(s.median_abs_span_error_percent, 1) + "%, max " + fixed(s.max_abs_span_error_percent, 1) +
                    "%. Event times (CUDA events around the launches) against the calibrated simulated makespan: "
                    "median |error| " + fixed(s.median_abs_event_error_percent, 1) + "%, max " +
                    fixed(s.max_abs_event_error_percent, 1) + "%.</p>\n" + format_columns().html(s.formats);
    h += "<p>Solid: measured; dashed: simulated x " + fixed(s.factor, 3) + "; one colour per format.</p>\n" +
         spmv_chart(s) + "\n" + point_columns().html(s.points);
    h += "<h2>SpMV timelines (measured above simulated)</h2>\n";
    for (const auto& p : s.points) {
        if (!p.has_timeline || p.measured_blocks.empty()) continue;
        const std::string name = p.matrix + " " + p.format;
        const std::vector<int> sms = sms_of(p.measured_blocks, p.simulated_blocks);
        h += "<details><summary>" + charts::escape_xml(name) + ": " + std::to_string(p.measured_blocks.size()) +
             " blocks, span " + fixed(p.timeline_span_us, 2) + " us measured, " + fixed(p.simulated_span_us, 2) +
             " us simulated (uncalibrated), " + std::to_string(p.misplaced) + " blocks on another SM</summary>\n" +
             sm_gantt(name + ": measured", p.measured_blocks, sms) + "\n" +
             sm_gantt(name + ": simulated", p.simulated_blocks, sms) + "\n</details>\n";
    }
    return h + "</section>\n";
}

}  // namespace

SpmvView::SpmvView(SpmvComparison comparison, std::string dir)
    : comparison_(std::move(comparison)), dir_(std::move(dir)) {}

void SpmvView::print_text(std::ostream& out) const { print_spmv(out, comparison_, dir_); }

void SpmvView::add_json(nlohmann::ordered_json& top) const { top["spmv"] = spmv_json(comparison_); }

std::string SpmvView::report_part() const { return spmv_section(comparison_); }

std::string SpmvSection::description() const {
    return "SpMV launches per matrix and format: block spans and event times, calibrated once";
}

std::unique_ptr<SectionView> SpmvSection::run(const std::string& data_dir, const SectionSettings& settings) const {
    const std::string dir = (std::filesystem::path(data_dir) / "spmv").string();
    return std::make_unique<SpmvView>(validate_spmv(dir, settings.gpu, settings.policy, settings.keep_blocks), dir);
}

namespace {
const SectionRegistration spmv_registration{50, [] { return std::make_unique<SpmvSection>(); }};
}  // namespace

}  // namespace gpusched::validation
