// HTML validation report: error table and measured vs simulated per-SM Gantt charts (SVG inline).
#include "gpusched/validation/validation_report.h"

#include <algorithm>
#include <cmath>

#include "gpusched/report/line_chart.h"
#include "gpusched/report/svg_format.h"
#include "apsp_timeline_report.h"
#include "report_html.h"
#include "workload_report.h"

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

std::string series_section(const SeriesComparison& s) {
    report::LineChart chart;
    chart.title = "binomial series: run time over blocks, one line per block size";
    chart.x_label = "blocks";
    chart.y_label = "run time (us)";
    chart.log_y = true;
    chart.width = 900;
    chart.height = 520;
    std::vector<int> threads;
    for (const auto& p : s.points)
        if (std::find(threads.begin(), threads.end(), p.threads) == threads.end()) threads.push_back(p.threads);
    for (std::size_t k = 0; k < threads.size(); ++k) {
        report::LineSeries measured{std::to_string(threads[k]) + " threads", {}, true, "", 1.5, k};
        report::LineSeries simulated{"", {}, false, "6 3", 1.5, k};
        for (const auto& p : s.points) {
            if (p.threads != threads[k]) continue;
            measured.points.push_back({static_cast<double>(p.blocks), p.measured_us});
            simulated.points.push_back({static_cast<double>(p.blocks), p.calibrated_us});
        }
        chart.series.push_back(measured);
        chart.series.push_back(simulated);
    }
    std::string h = "<section id=\"series\">\n<h2>Binomial series (compute-bound paper)</h2>\n<p>Solid: measured; dashed: "
                    "simulated x " + fixed(s.factor, 3) + " (calibrated at " + std::to_string(s.reference_blocks) +
                    " blocks x " + std::to_string(s.reference_threads) + " threads). Median |error| " +
                    fixed(s.median_abs_error_percent, 1) + "%, max " + fixed(s.max_abs_error_percent, 1) + "%.</p>\n";
    if (!s.work_keys.empty())
        h += "<p>Work keys added to every point, from <code>" + report::escape_xml(s.work_file) + "</code>: <code>" +
             report::escape_xml(s.work_keys) + "</code>.</p>\n";
    h += inline_svg(report::render_svg(chart)) + "\n<table>\n<tr><th>blocks</th><th>threads</th><th>measured us</th>"
         "<th>simulated us</th><th>calibrated us</th><th>error %</th></tr>\n";
    for (const auto& p : s.points)
        h += "<tr><td>" + std::to_string(p.blocks) + "</td><td>" + std::to_string(p.threads) + "</td><td>" +
             fixed(p.measured_us, 2) + "</td><td>" + fixed(p.simulated_us, 2) + "</td><td>" + fixed(p.calibrated_us, 2) +
             "</td><td>" + fixed(p.error_percent, 1) + "</td></tr>\n";
    return h + "</table>\n</section>\n";
}

std::string placement_section(const std::vector<PlacementComparison>& cases, int within_1, int exact) {
    std::string h = "<h2>Placement</h2>\n<p>" + std::to_string(cases.size()) + " cases, each block replayed with its "
                    "measured duration: " + std::to_string(within_1) + " within 1% of the measured span, " +
                    std::to_string(exact) + " with per-SM block counts exactly as measured.</p>\n<table>\n";
    h += "<tr><th>case</th><th>blocks</th><th>measured us</th><th>simulated us</th>"
         "<th>error %</th><th>blocks on another SM</th><th>waves measured / simulated</th>"
         "<th>start-time KS distance</th><th>walk start</th><th>H100 repetitions: blocks on another SM, median / max</th></tr>\n";
    for (const auto& c : cases) {
        const bool bad = std::abs(c.error_percent) > 2.0;
        const auto spread = repetition_spread(c);
        const bool beyond = spread && c.misplaced > spread->max;
        h += "<tr><td><a href=\"#" + report::escape_xml(c.name) + "\">" + report::escape_xml(c.name) + "</a></td><td>" +
             std::to_string(c.blocks) + "</td><td>" + fixed(c.measured_us, 3) + "</td><td>" + fixed(c.simulated_us, 3) +
             "</td><td" + (bad ? " class=\"bad\"" : "") + ">" + fixed(c.error_percent, 2) + "</td><td" +
             (beyond ? " class=\"bad\"" : "") + ">" + std::to_string(c.misplaced) + "</td><td>" +
             std::to_string(c.measured_waves) + " / " + std::to_string(c.simulated_waves) + "</td><td>" +
             fixed(c.start_distance, 3) + "</td><td>" + (c.walk_start.empty() ? "-" : c.walk_start) + "</td><td>" +
             (spread ? fixed(spread->median, 1) + " / " + std::to_string(spread->max) : "-") + "</td></tr>\n";
    }
    h += "</table>\n<p>Span: first block start to last block end. Blocks on another SM: how many blocks "
         "would have to move for the simulated per-SM block counts to equal the measured ones. Waves: the "
         "most blocks on one SM over the blocks that fit on an SM, rounded up. KS distance: the largest gap "
         "between the two distributions of block start times (0 = identical, 1 = disjoint). Walk start: "
         "ROW:LEAD where policy walk began the case (read off measured blocks 0 and 8). H100 repetitions: "
         "the same count for 10 repetitions of the case in a later run against this measured run, the "
         "hardware's own spread (red: the simulation is beyond its maximum).</p>\n";
    for (const auto& c : cases) {
        h += "<section id=\"" + report::escape_xml(c.name) + "\">\n<h2>" + report::escape_xml(c.name) + "</h2>\n<p>" +
             std::to_string(c.blocks) + " blocks; span " + fixed(c.measured_us, 3) + " us measured, " +
             fixed(c.simulated_us, 3) + " us simulated (" + fixed(c.error_percent, 2) + "%); " +
             std::to_string(c.misplaced) + " blocks on another SM.</p>\n";
        if (c.measured_blocks.empty() && c.simulated_blocks.empty()) {
            h += "<p>(no per-block timelines kept)</p>\n</section>\n";
            continue;
        }
        const std::vector<int> sms = sms_of(c.measured_blocks, c.simulated_blocks);
        h += sm_gantt(c.name + ": measured", c.measured_blocks, sms) + "\n";
        h += sm_gantt(c.name + ": simulated", c.simulated_blocks, sms) + "\n</section>\n";
    }
    return h;
}

}  // namespace


std::string render_validation_report(const std::vector<PlacementComparison>& cases,
                                     const std::vector<CurveComparison>& curves,
                                     const std::optional<SeriesComparison>& series, const ReportContext& context,
                                     const std::optional<SpmvComparison>& spmv, const std::optional<SsspComparison>& sssp,
                                     const std::optional<StreamclusterComparison>& streamcluster,
                                     const std::optional<ApspTimelineComparison>& apsp_timelines) {
    int within_1 = 0, exact = 0;
    for (const auto& c : cases) {
        within_1 += std::abs(c.error_percent) <= 1.0 ? 1 : 0;
        exact += c.misplaced == 0 ? 1 : 0;
    }
    std::string h;
    h += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>gpusched validation: " +
         report::escape_xml(context.gpu) + "</title>\n";
    h += "<style>body{font-family:sans-serif;margin:24px;max-width:1000px}table{border-collapse:collapse;display:block;overflow-x:auto}"
         "td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}td:first-child,th:first-child{text-align:left}"
         ".bad{background:#fde2e1}section{margin-top:32px}svg{display:block;margin:8px 0}</style>\n</head><body>\n";
    h += "<h1>gpusched validation report</h1>\n<p>Measured data: <code>" + report::escape_xml(context.data_dir) +
         "</code>. Simulated with GPU <code>" + report::escape_xml(context.gpu) + "</code> and policy <code>" +
         report::escape_xml(context.policy) + "</code>.</p>\n";
    if (!cases.empty()) h += placement_section(cases, within_1, exact);
    if (!curves.empty()) h += "<h1>Runtime curves</h1>\n";
    for (const auto& c : curves) h += curve_section(c);
    if (series) h += series_section(*series);
    if (spmv) h += spmv_section(*spmv);
    if (sssp) h += sssp_section(*sssp);
    if (streamcluster) h += streamcluster_section(*streamcluster);
    if (apsp_timelines) h += apsp_timeline_section(*apsp_timelines);
    h += "</body></html>\n";
    return h;
}

}  // namespace gpusched::validation
