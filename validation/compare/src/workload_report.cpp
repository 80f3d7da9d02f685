// HTML sections of the validation report for SpMV, n x SSSP and streamcluster.
#include "workload_report.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "gpusched/report/gantt_chart.h"
#include "gpusched/report/line_chart.h"
#include "gpusched/report/svg_format.h"
#include "report_html.h"

namespace gpusched::validation {

namespace {

std::string cell(const std::string& text, bool bad = false) {
    return std::string(bad ? "<td class=\"bad\">" : "<td>") + report::escape_xml(text) + "</td>";
}

std::string row(const std::vector<std::string>& cells) {
    std::string h = "<tr>";
    for (const auto& c : cells) h += cell(c);
    return h + "</tr>\n";
}

std::string header(const std::vector<std::string>& names) {
    std::string h = "<tr>";
    for (const auto& n : names) h += "<th>" + report::escape_xml(n) + "</th>";
    return h + "</tr>\n";
}

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

std::string sssp_time_chart(const SsspComparison& s, bool speedup) {
    report::LineChart chart;
    chart.title = speedup ? "n x SSSP: speedup from 1 to C streams (T = 256, max-l1)"
                          : "n x SSSP: whole run of 32 sources over streams (T = 256, max-l1)";
    chart.x_label = "log2 C (0 = 1 stream, 5 = 32 streams)";
    chart.y_label = speedup ? "t(C=1) / t(C)" : "run time (ms)";
    chart.log_y = true;
    std::vector<std::string> graphs;
    for (const auto& p : s.points)
        if (std::find(graphs.begin(), graphs.end(), p.config.graph) == graphs.end()) graphs.push_back(p.config.graph);
    for (std::size_t g = 0; g < graphs.size(); ++g) {
        report::LineSeries measured{graphs[g] + " measured (CUDA graph)", {}, true, "", 1.5, g};
        report::LineSeries simulated{graphs[g] + " simulated" + (speedup ? "" : " x " + fixed(s.factor, 2)), {}, true,
                                     "6 3", 1.5, g};
        report::LineSeries direct{graphs[g] + " measured (direct launches)", {}, true, "2 3", 1.0, g};
        report::LineSeries direct_sim{graphs[g] + " simulated (direct)" +
                                          (speedup ? "" : " x " + fixed(s.stream_factor, 2)),
                                      {}, true, "8 2 2 2", 1.0, g};
        std::map<int, const SsspPoint*> one;
        for (const auto& p : s.points)
            if (p.config.graph == graphs[g] && p.config.threads == 256 && p.config.carveout == "max-l1" &&
                p.config.streams == 1)
                one[p.mode == "graph" ? 0 : 1] = &p;
        for (const auto& p : s.points) {
            if (p.config.graph != graphs[g] || p.config.threads != 256 || p.config.carveout != "max-l1") continue;
            const double x = std::log2(p.config.streams);
            const SsspPoint* base = one.count(p.mode == "graph" ? 0 : 1) ? one[p.mode == "graph" ? 0 : 1] : nullptr;
            if (speedup && !base) continue;
            const double m = speedup ? base->measured_us / p.measured_us : p.measured_us / 1000;
            const double sim = speedup ? base->simulated_us / p.simulated_us : p.calibrated_us / 1000;
            if (p.mode == "graph") {
                measured.points.push_back({x, m});
                simulated.points.push_back({x, sim});
            } else {
                direct.points.push_back({x, m});
                direct_sim.points.push_back({x, sim});
            }
        }
        chart.series.push_back(measured);
        chart.series.push_back(simulated);
        chart.series.push_back(direct);
        chart.series.push_back(direct_sim);
    }
    return inline_svg(report::render_svg(chart));
}

std::string stream_gantt(const std::string& title, const std::vector<SsspLaunchSpan>& launches) {
    report::GanttChart chart;
    chart.title = title;
    chart.detail_px = 1000;
    chart.row_height = 12;
    chart.colour_names = {"relax", "minimum", "update"};
    int streams = 0;
    for (const auto& l : launches) streams = std::max(streams, l.stream + 1);
    for (int k = 0; k < streams; ++k) chart.rows.push_back({"stream " + std::to_string(k), {}});
    for (const auto& l : launches) {
        const std::size_t colour = l.kernel == "relax" ? 0 : l.kernel == "minimum" ? 1 : 2;
        chart.rows[static_cast<std::size_t>(l.stream)].bars.push_back({l.start_us, l.end_us, colour, l.kernel});
    }
    chart.caption = "One bar per launch: its first block start to its last block end.";
    return inline_svg(report::render_svg(chart));
}

/// Run time over log2 R: measured (solid) and simulated x f (dashed), documented keys (dotted).
std::string streamcluster_chart(const StreamclusterComparison& s) {
    report::LineChart chart;
    chart.title = "streamcluster: kernel + D2H copies per call over the rake size R (pinned, pageable host memory)";
    chart.x_label = "log2 R";
    chart.y_label = "time per call (us)";
    chart.log_y = true;
    chart.width = 900;
    chart.height = 480;
    struct Line {
        std::string name;
        double (*measured)(const StreamclusterPoint&);
        double (*calibrated)(const StreamclusterPoint&);
        double (*documented)(const StreamclusterPoint&);
    };
    const std::vector<Line> lines{
        {"pinned total", [](const StreamclusterPoint& p) { return p.measured_total_pinned_us; },
         [](const StreamclusterPoint& p) { return p.calibrated_total_pinned_us; },
         [](const StreamclusterPoint& p) { return p.documented.total_pinned_us; }},
        {"pageable total", [](const StreamclusterPoint& p) { return p.measured_total_pageable_us; },
         [](const StreamclusterPoint& p) { return p.calibrated_total_pageable_us; },
         [](const StreamclusterPoint& p) { return p.documented.total_pageable_us; }},
        {"kernel alone", [](const StreamclusterPoint& p) { return p.measured_kernel_us; },
         [](const StreamclusterPoint& p) { return p.calibrated_kernel_us; },
         [](const StreamclusterPoint& p) { return p.documented.kernel_us; }}};
    for (std::size_t k = 0; k < lines.size(); ++k) {
        report::LineSeries measured{lines[k].name + ": measured", {}, true, "", 1.5, k};
        report::LineSeries calibrated{lines[k].name + ": sim. x " + fixed(s.factor, 2), {}, true, "6 3", 1.5, k};
        report::LineSeries documented{lines[k].name + ": " + s.documented_keys, {}, false, "2 3", 1.0, k};
        for (const auto& p : s.points) {
            const double x = std::log2(p.rake);
            measured.points.push_back({x, lines[k].measured(p)});
            calibrated.points.push_back({x, lines[k].calibrated(p)});
            documented.points.push_back({x, lines[k].documented(p)});
        }
        chart.series.push_back(measured);
        chart.series.push_back(calibrated);
        if (!s.documented_keys.empty()) chart.series.push_back(documented);
    }
    return inline_svg(report::render_svg(chart));
}

std::string config_text(const SsspConfig& c) {
    return c.graph + ", K = " + std::to_string(c.sources) + ", C = " + std::to_string(c.streams) + ", T = " +
           std::to_string(c.threads) + ", " + c.carveout;
}

}  // namespace

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

std::string sssp_section(const SsspComparison& s) {
    std::string h = "<h1>n x SSSP</h1>\n<section id=\"sssp\">\n<p><b>Frontier check</b> (the runner's per-iteration "
                    "sets against the CPU reference, a hard check):";
    for (const auto& f : s.frontiers)
        h += " " + report::escape_xml(f.graph) + ": " + std::to_string(f.sources) + " sources, " +
             std::to_string(f.iterations) + " iterations, " +
             (f.mismatches == 0 ? std::string("identical") : std::to_string(f.mismatches) + " mismatches (first: " +
                                                                  report::escape_xml(f.first_mismatch) + ")") + ";";
    h += " launch counts " + std::string(s.launches_match ? "identical" : "<b>differ</b>") + ".</p>\n";
    h += "<p>Calibrated once, at the CUDA-graph run of " + report::escape_xml(config_text(s.reference)) + " (factor " +
         fixed(s.factor, 3) + "). CUDA-graph runs: median |error| " + fixed(s.median_abs_error_graph_percent, 1) +
         "%, max " + fixed(s.max_abs_error_graph_percent, 1) + "%. Direct launches from one host thread (simulated as " +
         "host calls, calibrated at their own run of the reference, factor " + fixed(s.stream_factor, 3) +
         "): median |error| " + fixed(s.median_abs_error_stream_percent, 1) + "%, max " +
         fixed(s.max_abs_error_stream_percent, 1) + "%.</p>\n";
    h += sssp_time_chart(s, false) + "\n" + sssp_time_chart(s, true) + "\n";
    h += "<h2>Carveout: t(max-shared) / t(max-l1), CUDA graphs</h2>\n<table>\n" +
         header({"configuration", "measured", "simulated"});
    for (const auto& c : s.carveouts) h += row({config_text(c.config), fixed(c.measured, 3), fixed(c.simulated, 3)});
    h += "</table>\n<h2>Timelines (uncalibrated)</h2>\n<table>\n" +
         header({"timeline", "span us", "simulated", "launches in flight", "simulated", "relax us (median)", "simulated",
                 "minimum us", "simulated", "update us", "simulated"});
    for (const auto& t : s.timelines)
        h += row({t.name, fixed(t.measured_span_us, 1), fixed(t.simulated_span_us, 1), fixed(t.measured_in_flight, 2),
                  fixed(t.simulated_in_flight, 2), fixed(t.measured_kernel_us[0], 2), fixed(t.simulated_kernel_us[0], 2),
                  fixed(t.measured_kernel_us[1], 2), fixed(t.simulated_kernel_us[1], 2), fixed(t.measured_kernel_us[2], 2),
                  fixed(t.simulated_kernel_us[2], 2)});
    h += "</table>\n";
    for (const auto& t : s.timelines)
        h += "<details><summary>" + report::escape_xml(t.name) + ": launches per stream, measured above simulated (each on its own time axis)</summary>\n" +
             stream_gantt(t.name + ": measured", t.measured_launches) + "\n" +
             stream_gantt(t.name + ": simulated", t.simulated_launches) + "\n</details>\n";
    h += "<h2>Every run</h2>\n<table>\n" +
         header({"graph", "K", "C", "T", "carveout", "mode", "measured ms", "spread %", "simulated ms", "x f ms", "error %"});
    for (const auto& p : s.points)
        h += "<tr>" + cell(p.config.graph) + cell(std::to_string(p.config.sources)) +
             cell(std::to_string(p.config.streams)) + cell(std::to_string(p.config.threads)) + cell(p.config.carveout) +
             cell(p.mode) + cell(fixed(p.measured_us / 1000, 3)) + cell(fixed(p.spread_percent, 1)) +
             cell(fixed(p.simulated_us / 1000, 3)) + cell(fixed(p.calibrated_us / 1000, 3)) +
             cell(fixed(p.error_percent, 1), std::abs(p.error_percent) > 25) + "</tr>\n";
    return h + "</table>\n</section>\n";
}

std::string streamcluster_section(const StreamclusterComparison& s) {
    const bool doc = !s.documented_keys.empty();
    const auto best = [&](const char* kind, const StreamclusterBest& b) {
        return std::string("<li>") + kind + ": measured R = " + std::to_string(b.measured) + ", simulated " +
               std::to_string(b.simulated) + ", simulated x f " + std::to_string(b.calibrated) +
               (doc ? ", with " + report::escape_xml(s.documented_keys) + " " + std::to_string(b.documented) : "") + "</li>\n";
    };
    std::string h = "<h1>streamcluster</h1>\n<section id=\"streamcluster\">\n<p>" + std::to_string(s.points.size()) +
                    " rake sizes R (pgain over the measured points, 256 threads), each simulated with the generator's "
                    "default keys and the <code>shared</code> execution model, the kernel alone and with its pinned or "
                    "pageable copies back. Kernel calibrated once, at R = " + std::to_string(s.reference_rake) +
                    " (the median measured block span; factor " + fixed(s.factor, 3) + ", applied to the kernel's "
                    "span, not to the launch overhead or the copies): kernel median |error| " +
                    fixed(s.median_abs_kernel_error_percent, 1) + "%, max " + fixed(s.max_abs_kernel_error_percent, 1) +
                    "%. Copies, uncalibrated: pinned median |error| " + fixed(s.median_abs_d2h_pinned_error_percent, 1) +
                    "%, pageable " + fixed(s.median_abs_d2h_pageable_error_percent, 1) + "%." +
                    (doc ? " Dotted: uncalibrated, with the documented " + report::escape_xml(s.documented_keys) +
                               " (fitted to the R = 512 row of this data): kernel median |error| " +
                               fixed(s.median_abs_documented_kernel_error_percent, 1) + "%, max " +
                               fixed(s.max_abs_documented_kernel_error_percent, 1) + "%."
                         : std::string()) +
                    " Simulated grids " + (s.grids_match ? "identical to the runner's" : "<b>differ</b> from the runner's") +
                    ".</p>\n<p>Best R by total time:</p>\n<ul>\n" + best("pinned", s.best_pinned) +
                    best("pageable", s.best_pageable) + "</ul>\n" + streamcluster_chart(s) + "\n<table>\n";
    std::vector<std::string> head{"R", "blocks", "kernel us", "simulated", "x f", "error %", "D2H pinned us", "simulated",
                                  "error %", "D2H pageable us", "simulated", "error %", "total pinned us", "x f",
                                  "total pageable us", "x f"};
    if (doc) head.insert(head.end(), {"kernel, doc keys", "error %"});
    h += header(head);
    for (const auto& p : s.points) {
        h += "<tr>" + cell(std::to_string(p.rake)) + cell(std::to_string(p.simulated.blocks)) +
             cell(fixed(p.measured_kernel_us, 1)) + cell(fixed(p.simulated.kernel_us, 1)) +
             cell(fixed(p.calibrated_kernel_us, 1)) + cell(fixed(p.kernel_error_percent, 1), std::abs(p.kernel_error_percent) > 25) +
             cell(fixed(p.measured_d2h_pinned_us, 1)) + cell(fixed(p.simulated.d2h_pinned_us, 1)) +
             cell(fixed(p.d2h_pinned_error_percent, 1), std::abs(p.d2h_pinned_error_percent) > 25) +
             cell(fixed(p.measured_d2h_pageable_us, 1)) + cell(fixed(p.simulated.d2h_pageable_us, 1)) +
             cell(fixed(p.d2h_pageable_error_percent, 1), std::abs(p.d2h_pageable_error_percent) > 25) +
             cell(fixed(p.measured_total_pinned_us, 1)) + cell(fixed(p.calibrated_total_pinned_us, 1)) +
             cell(fixed(p.measured_total_pageable_us, 1)) + cell(fixed(p.calibrated_total_pageable_us, 1));
        if (doc)
            h += cell(fixed(p.documented.kernel_us, 1)) +
                 cell(fixed(p.documented_kernel_error_percent, 1), std::abs(p.documented_kernel_error_percent) > 25);
        h += "</tr>\n";
    }
    h += "</table>\n<h2>streamcluster timelines (measured above simulated, uncalibrated)</h2>\n";
    for (const auto& p : s.points) {
        if (!p.has_timeline || p.measured_blocks.empty()) continue;
        const std::string name = "R = " + std::to_string(p.rake);
        const std::vector<int> sms = sms_of(p.measured_blocks, p.simulated_blocks);
        h += "<details><summary>" + report::escape_xml(name) + ": " + std::to_string(p.timeline_blocks) +
             " blocks, span " + fixed(p.timeline_span_us, 1) + " us measured, " + fixed(p.simulated.span_us, 1) +
             " us simulated, " + std::to_string(p.measured_sms) + " / " + std::to_string(p.simulated_sms) +
             " SMs used, " + std::to_string(p.misplaced) + " blocks on another SM</summary>\n" +
             sm_gantt("streamcluster " + name + ": measured", p.measured_blocks, sms) + "\n" +
             sm_gantt("streamcluster " + name + ": simulated", p.simulated_blocks, sms) + "\n</details>\n";
    }
    return h + "</section>\n";
}

}  // namespace gpusched::validation
