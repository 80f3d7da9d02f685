// The spmv section: SpMV configurations as text tables, JSON and a report chart, table and timelines.
#include "gpusched/validation/sections/spmv_section.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <vector>

#include "gpusched/report/line_chart.h"
#include "gpusched/report/svg_format.h"
#include "../report_html.h"

namespace gpusched::validation {

namespace {

const std::vector<std::string> kFormats{"csr", "ell", "coo", "hyb"};

std::string spmv_chart(const SpmvComparison& s) {
    report::LineChart chart;
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
        report::LineSeries measured{kFormats[f] + " measured", {}, true, "", 1.5, f};
        report::LineSeries simulated{kFormats[f] + " simulated x " + fixed(s.factor, 2), {}, true, "6 3", 1.5, f};
        for (std::size_t m = 0; m < matrices.size(); ++m)
            for (const auto& p : s.points)
                if (p.matrix == matrices[m] && p.format == kFormats[f]) {
                    measured.points.push_back({static_cast<double>(m + 1), p.measured_span_us});
                    simulated.points.push_back({static_cast<double>(m + 1), p.calibrated_span_us});
                }
        chart.series.push_back(measured);
        chart.series.push_back(simulated);
    }
    return inline_svg(report::render_svg(chart));
}

void print_spmv(std::ostream& out, const SpmvComparison& s, const std::string& dir) {
    out << "\nSpMV of " << dir << " (shared execution): block span calibrated once at " << s.reference_matrix << " "
        << s.reference_format << " (factor " << fixed(s.factor, 3) << ", applied to each launch's span, not to launch overheads)\n";
    report::TextTable t({"matrix", "format", "blocks", "span_us", "sim_span_us", "span_err_%", "event_us", "sim_event_us",
                         "event_err_%", "misplaced", "start_ks"},
                        {false, false, true, true, true, true, true, true, true, true, true});
    for (const auto& p : s.points)
        t.add_row({p.matrix, p.format, std::to_string(p.blocks), fixed(p.measured_span_us, 3),
                   fixed(p.calibrated_span_us, 3), fixed(p.span_error_percent, 1), fixed(p.measured_event_us, 3),
                   fixed(p.calibrated_us, 3), fixed(p.event_error_percent, 1),
                   p.has_timeline ? std::to_string(p.misplaced) : "-", p.has_timeline ? fixed(p.start_distance, 3) : "-"});
    t.print(out);
    report::TextTable f({"format", "points", "median_|span_err|_%", "max_|span_err|_%", "median_event_err_%"},
                        {false, true, true, true, true});
    for (const auto& x : s.formats)
        f.add_row({x.format, std::to_string(x.points), fixed(x.median_abs_span_error_percent, 1),
                   fixed(x.max_abs_span_error_percent, 1), fixed(x.median_event_error_percent, 1)});
    f.print(out);
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
    for (const auto& f : s.formats)
        j["formats"].push_back({{"format", f.format}, {"points", f.points},
                                {"median_abs_span_error_percent", f.median_abs_span_error_percent},
                                {"max_abs_span_error_percent", f.max_abs_span_error_percent},
                                {"median_event_error_percent", f.median_event_error_percent}});
    for (const auto& p : s.points) {
        nlohmann::ordered_json q{{"matrix", p.matrix}, {"format", p.format}, {"rows", p.rows}, {"nnz", p.nnz},
                                 {"launches", p.launches}, {"blocks", p.blocks}, {"measured_span_us", p.measured_span_us},
                                 {"simulated_span_us", p.simulated_span_us}, {"calibrated_span_us", p.calibrated_span_us},
                                 {"span_error_percent", p.span_error_percent}, {"measured_event_us", p.measured_event_us},
                                 {"simulated_us", p.simulated_us}, {"calibrated_us", p.calibrated_us},
                                 {"event_error_percent", p.event_error_percent}};
        if (p.has_timeline) {
            q["misplaced_blocks"] = p.misplaced;
            q["start_ks_distance"] = p.start_distance;
        }
        j["points"].push_back(q);
    }
    return j;
}

std::string spmv_section(const SpmvComparison& s) {
    std::string h = "<h1>SpMV</h1>\n<section id=\"spmv\">\n<p>" + std::to_string(s.points.size()) +
                    " measured configurations (matrix x format, 256 threads), each simulated on the same matrix with "
                    "the <code>shared</code> execution model and calibrated once, at " + report::escape_xml(s.reference_matrix + " " + s.reference_format) +
                    " (the median measured span; factor " + fixed(s.factor, 3) + ", applied to each launch's span, not to the "
                    "launch overheads). Block spans (first block start to last block end): median |error| " +
                    fixed(s.median_abs_span_error_percent, 1) + "%, max " + fixed(s.max_abs_span_error_percent, 1) +
                    "%. Event times (CUDA events around the launches) against the calibrated simulated makespan: "
                    "median |error| " + fixed(s.median_abs_event_error_percent, 1) + "%, max " +
                    fixed(s.max_abs_event_error_percent, 1) + "%.</p>\n<table>\n" +
                    header({"format", "points", "median |span error| %", "max |span error| %", "median event error %"});
    for (const auto& f : s.formats)
        h += row({f.format, std::to_string(f.points), fixed(f.median_abs_span_error_percent, 1),
                  fixed(f.max_abs_span_error_percent, 1), fixed(f.median_event_error_percent, 1)});
    h += "</table>\n<p>Solid: measured; dashed: simulated x " + fixed(s.factor, 3) + "; one colour per format.</p>\n" +
         spmv_chart(s) + "\n<table>\n" +
         header({"matrix", "format", "blocks", "span us", "simulated, calibrated", "span error %", "event us", "simulated, calibrated",
                 "event error %", "blocks on another SM", "start KS"});
    for (const auto& p : s.points)
        h += "<tr>" + cell(p.matrix) + cell(p.format) + cell(std::to_string(p.blocks)) + cell(fixed(p.measured_span_us, 3)) +
             cell(fixed(p.calibrated_span_us, 3)) + cell(fixed(p.span_error_percent, 1), std::abs(p.span_error_percent) > 25) +
             cell(fixed(p.measured_event_us, 3)) + cell(fixed(p.calibrated_us, 3)) +
             cell(fixed(p.event_error_percent, 1), std::abs(p.event_error_percent) > 25) +
             cell(p.has_timeline ? std::to_string(p.misplaced) : "-") +
             cell(p.has_timeline ? fixed(p.start_distance, 3) : "-") + "</tr>\n";
    h += "</table>\n<h2>SpMV timelines (measured above simulated)</h2>\n";
    for (const auto& p : s.points) {
        if (!p.has_timeline || p.measured_blocks.empty()) continue;
        const std::string name = p.matrix + " " + p.format;
        const std::vector<int> sms = sms_of(p.measured_blocks, p.simulated_blocks);
        h += "<details><summary>" + report::escape_xml(name) + ": " + std::to_string(p.measured_blocks.size()) +
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

}  // namespace gpusched::validation
