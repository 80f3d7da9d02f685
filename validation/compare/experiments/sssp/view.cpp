// The sssp section: n x SSSP as text tables, JSON and report charts, tables and launch timelines.
#include "experiments/sssp/view.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <vector>

#include "gpusched/charts/gantt_chart.h"
#include "gpusched/charts/line_chart.h"
#include "gpusched/charts/svg_format.h"
#include "gpusched/validation/section_registry.h"
#include "gpusched/validation/table_columns.h"
#include "report_html.h"

namespace gpusched::validation {

namespace {

std::string config_name(const SsspConfig& c) {
    return c.graph + " K=" + std::to_string(c.sources) + " C=" + std::to_string(c.streams) +
           " T=" + std::to_string(c.threads) + " " + c.carveout;
}

std::string config_text(const SsspConfig& c) {
    return c.graph + ", K = " + std::to_string(c.sources) + ", C = " + std::to_string(c.streams) + ", T = " +
           std::to_string(c.threads) + ", " + c.carveout;
}

nlohmann::ordered_json config_json(const SsspConfig& c) {
    return {{"graph", c.graph}, {"sources", c.sources}, {"streams", c.streams}, {"threads", c.threads},
            {"carveout", c.carveout}};
}

std::string sssp_time_chart(const SsspComparison& s, bool speedup) {
    charts::LineChart chart;
    chart.title = speedup ? "n x SSSP: speedup from 1 to C streams (T = 256, max-l1)"
                          : "n x SSSP: whole run of 32 sources over streams (T = 256, max-l1)";
    chart.x_label = "log2 C (0 = 1 stream, 5 = 32 streams)";
    chart.y_label = speedup ? "t(C=1) / t(C)" : "run time (ms)";
    chart.log_y = true;
    std::vector<std::string> graphs;
    for (const auto& p : s.points)
        if (std::find(graphs.begin(), graphs.end(), p.config.graph) == graphs.end()) graphs.push_back(p.config.graph);
    for (std::size_t g = 0; g < graphs.size(); ++g) {
        charts::LineSeries measured{graphs[g] + " measured (CUDA graph)", {}, true, "", 1.5, g};
        charts::LineSeries simulated{graphs[g] + " simulated" + (speedup ? "" : " x " + fixed(s.factor, 2)), {}, true,
                                     "6 3", 1.5, g};
        charts::LineSeries direct{graphs[g] + " measured (direct launches)", {}, true, "2 3", 1.0, g};
        charts::LineSeries direct_sim{graphs[g] + " simulated (direct)" +
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
    return inline_svg(charts::render_svg(chart));
}

std::string stream_gantt(const std::string& title, const std::vector<SsspLaunchSpan>& launches) {
    charts::GanttChart chart;
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
    return inline_svg(charts::render_svg(chart));
}


/// A row per run: text, JSON "points" and the report's "Every run" table.
const TableColumns<SsspPoint>& point_columns() {
    using P = SsspPoint;
    static const TableColumns<P> columns{
        shown_column<P>({"graph", "graph", ""}, [](const P& p) { return p.config.graph; }, Align::left),
        shown_column<P>({"K", "K", ""}, [](const P& p) { return std::to_string(p.config.sources); }),
        shown_column<P>({"C", "C", ""}, [](const P& p) { return std::to_string(p.config.streams); }),
        shown_column<P>({"T", "T", ""}, [](const P& p) { return std::to_string(p.config.threads); }),
        shown_column<P>({"carveout", "carveout", ""}, [](const P& p) { return p.config.carveout; }, Align::left),
        json_column<P>("config", [](const P& p) { return config_json(p.config); }),
        text_column<P>({"mode", "mode", "mode"}, &P::mode),
        integer_column<P>({"launches", "", "launches"}, &P::launches),
        decimal_column<P>({"measured_ms", "measured ms", "measured_us"}, [](const P& p) { return p.measured_us / 1000; }, 3)
            .in_json_as([](const P& p) { return p.measured_us; }),
        decimal_column<P>({"spread_%", "spread %", "spread_percent"}, &P::spread_percent, 1),
        decimal_column<P>({"simulated_ms", "simulated ms", "simulated_us"}, [](const P& p) { return p.simulated_us / 1000; }, 3)
            .in_json_as([](const P& p) { return p.simulated_us; }),
        decimal_column<P>({"calibrated_ms", "x f ms", "calibrated_us"}, [](const P& p) { return p.calibrated_us / 1000; }, 3)
            .in_json_as([](const P& p) { return p.calibrated_us; }),
        decimal_column<P>({"error_%", "error %", "error_percent"}, &P::error_percent, 1)
            .red_when([](const P& p) { return std::abs(p.error_percent) > 25; }),
    };
    return columns;
}

/// A row per speedup from 1 to C streams: text and JSON "speedups".
const TableColumns<SsspSpeedup>& speedup_columns() {
    using S = SsspSpeedup;
    static const TableColumns<S> columns{
        shown_column<S>({"graph mode", "", ""}, [](const S& x) { return config_name(x.config); }, Align::left),
        json_column<S>("config", [](const S& x) { return config_json(x.config); }),
        json_column<S>("mode", &S::mode),
        shown_column<S>({"speedup C=1 -> C measured", "", "measured"}, [](const S& x) { return fixed(x.measured, 2) + "x"; })
            .in_json_as([](const S& x) { return x.measured; }),
        shown_column<S>({"simulated", "", "simulated"}, [](const S& x) { return fixed(x.simulated, 2) + "x"; })
            .in_json_as([](const S& x) { return x.simulated; }),
    };
    return columns;
}

/// A row per carveout effect: text, JSON "carveouts" and the report's carveout table.
const TableColumns<SsspCarveout>& carveout_columns() {
    using C = SsspCarveout;
    static const TableColumns<C> columns{
        shown_column<C>({"graph mode", "configuration", ""}, [](const C& x) { return config_name(x.config); }, Align::left)
            .in_html_as([](const C& x) { return config_text(x.config); }),
        json_column<C>("config", [](const C& x) { return config_json(x.config); }),
        json_column<C>("mode", &C::mode),
        decimal_column<C>({"max-shared / max-l1 measured", "measured", "measured"}, &C::measured, 3),
        decimal_column<C>({"simulated", "simulated", "simulated"}, &C::simulated, 3),
    };
    return columns;
}

/// A row per timeline: text, JSON "timelines" (less their "kernels") and the report's timeline table.
const TableColumns<SsspTimeline>& timeline_columns() {
    using T = SsspTimeline;
    const auto kernel = [](std::size_t k, bool simulated) {
        return [k, simulated](const T& t) { return fixed((simulated ? t.simulated_kernel_us : t.measured_kernel_us)[k], 2); };
    };
    static const TableColumns<T> columns{
        text_column<T>({"timeline", "timeline", "name"}, &T::name),
        json_column<T>("config", [](const T& t) { return config_json(t.config); }),
        json_column<T>("mode", &T::mode),
        decimal_column<T>({"span_us", "span us", "measured_span_us"}, &T::measured_span_us, 1),
        decimal_column<T>({"sim_span_us", "simulated", "simulated_span_us"}, &T::simulated_span_us, 1),
        decimal_column<T>({"in_flight", "launches in flight", "measured_in_flight"}, &T::measured_in_flight, 2),
        decimal_column<T>({"sim_in_flight", "simulated", "simulated_in_flight"}, &T::simulated_in_flight, 2),
        shown_column<T>({"relax_us", "relax us (median)", ""}, kernel(0, false)),
        shown_column<T>({"sim", "simulated", ""}, kernel(0, true)),
        shown_column<T>({"minimum_us", "minimum us", ""}, kernel(1, false)),
        shown_column<T>({"sim", "simulated", ""}, kernel(1, true)),
        shown_column<T>({"update_us", "update us", ""}, kernel(2, false)),
        shown_column<T>({"sim", "simulated", ""}, kernel(2, true)),
    };
    return columns;
}

void print_sssp(std::ostream& out, const SsspComparison& s, const std::string& dir) {
    out << "\nn x SSSP of " << dir << " (shared execution): calibrated once at graph mode (simulated as a CUDA graph) " << config_name(s.reference)
        << " (factor " << fixed(s.factor, 3) << "); direct launches (stream mode, simulated as host calls) at their own run of it"
        << " (factor " << fixed(s.stream_factor, 3) << ")\n";
    point_columns().print_text(out, s.points);
    out << "graph mode: median |error| " << fixed(s.median_abs_error_graph_percent, 1) << "%, max "
        << fixed(s.max_abs_error_graph_percent, 1) << "%; direct launches (host calls): median |error| "
        << fixed(s.median_abs_error_stream_percent, 1) << "%, max " << fixed(s.max_abs_error_stream_percent, 1)
        << "%; launch counts " << (s.launches_match ? "identical" : "DIFFER") << "\n";
    speedup_columns().print_text(out, s.speedups);
    carveout_columns().print_text(out, s.carveouts);
    timeline_columns().print_text(out, s.timelines);
    out << "timelines: uncalibrated; per-kernel columns are median launch spans (first block start to last end)\n";
    for (const auto& f : s.frontiers)
        out << "frontier check " << f.graph << ": " << f.sources << " sources, " << f.iterations << " iterations, "
            << (f.mismatches == 0 ? "identical to the CPU reference" : std::to_string(f.mismatches) + " MISMATCHES, first " + f.first_mismatch)
            << "\n";
}

nlohmann::ordered_json sssp_json(const SsspComparison& s) {
    nlohmann::ordered_json j{{"reference", config_json(s.reference)},
                             {"factor", s.factor},
                             {"stream_factor", s.stream_factor},
                             {"median_abs_error_graph_percent", s.median_abs_error_graph_percent},
                             {"max_abs_error_graph_percent", s.max_abs_error_graph_percent},
                             {"median_abs_error_stream_percent", s.median_abs_error_stream_percent},
                             {"max_abs_error_stream_percent", s.max_abs_error_stream_percent},
                             {"launches_match", s.launches_match}};
    for (const auto& p : s.points) j["points"].push_back(point_columns().json(p));
    for (const auto& x : s.speedups) j["speedups"].push_back(speedup_columns().json(x));
    for (const auto& x : s.carveouts) j["carveouts"].push_back(carveout_columns().json(x));
    for (const auto& x : s.timelines) {
        nlohmann::ordered_json t = timeline_columns().json(x);
        for (std::size_t k = 0; k < x.kernels.size(); ++k)
            t["kernels"].push_back({{"kernel", x.kernels[k]}, {"measured_median_span_us", x.measured_kernel_us[k]},
                                    {"simulated_median_span_us", x.simulated_kernel_us[k]}});
        j["timelines"].push_back(t);
    }
    for (const auto& f : s.frontiers)
        j["frontier_checks"].push_back({{"graph", f.graph}, {"sources", f.sources}, {"iterations", f.iterations},
                                        {"mismatches", f.mismatches}, {"first_mismatch", f.first_mismatch}});
    return j;
}

std::string sssp_section(const SsspComparison& s) {
    std::string h = "<h1>n x SSSP</h1>\n<section id=\"sssp\">\n<p><b>Frontier check</b> (the runner's per-iteration "
                    "sets against the CPU reference, a hard check):";
    for (const auto& f : s.frontiers)
        h += " " + charts::escape_xml(f.graph) + ": " + std::to_string(f.sources) + " sources, " +
             std::to_string(f.iterations) + " iterations, " +
             (f.mismatches == 0 ? std::string("identical") : std::to_string(f.mismatches) + " mismatches (first: " +
                                                                  charts::escape_xml(f.first_mismatch) + ")") + ";";
    h += " launch counts " + std::string(s.launches_match ? "identical" : "<b>differ</b>") + ".</p>\n";
    h += "<p>Calibrated once, at the CUDA-graph run of " + charts::escape_xml(config_text(s.reference)) + " (factor " +
         fixed(s.factor, 3) + "). CUDA-graph runs: median |error| " + fixed(s.median_abs_error_graph_percent, 1) +
         "%, max " + fixed(s.max_abs_error_graph_percent, 1) + "%. Direct launches from one host thread (simulated as " +
         "host calls, calibrated at their own run of the reference, factor " + fixed(s.stream_factor, 3) +
         "): median |error| " + fixed(s.median_abs_error_stream_percent, 1) + "%, max " +
         fixed(s.max_abs_error_stream_percent, 1) + "%.</p>\n";
    h += sssp_time_chart(s, false) + "\n" + sssp_time_chart(s, true) + "\n";
    h += "<h2>Carveout: t(max-shared) / t(max-l1), CUDA graphs</h2>\n" + carveout_columns().html(s.carveouts);
    h += "<h2>Timelines (uncalibrated)</h2>\n" + timeline_columns().html(s.timelines);
    for (const auto& t : s.timelines)
        h += "<details><summary>" + charts::escape_xml(t.name) + ": launches per stream, measured above simulated (each on its own time axis)</summary>\n" +
             stream_gantt(t.name + ": measured", t.measured_launches) + "\n" +
             stream_gantt(t.name + ": simulated", t.simulated_launches) + "\n</details>\n";
    h += "<h2>Every run</h2>\n" + point_columns().html(s.points);
    return h + "</section>\n";
}

}  // namespace

SsspView::SsspView(SsspComparison comparison, std::string dir)
    : comparison_(std::move(comparison)), dir_(std::move(dir)) {}

void SsspView::print_text(std::ostream& out) const { print_sssp(out, comparison_, dir_); }

void SsspView::add_json(nlohmann::ordered_json& top) const { top["sssp"] = sssp_json(comparison_); }

std::string SsspView::report_part() const { return sssp_section(comparison_); }

std::string SsspSection::description() const {
    return "n x SSSP run times, speedups over streams, carveouts and timelines (75 configurations: about 75 CPU-seconds, 40 s on two cores)";
}

std::unique_ptr<SectionView> SsspSection::run(const std::string& data_dir, const SectionSettings& settings) const {
    const std::string dir = (std::filesystem::path(data_dir) / "sssp").string();
    return std::make_unique<SsspView>(validate_sssp(dir, settings.gpu, settings.policy), dir);
}

namespace {
const SectionRegistration sssp_registration{60, [] { return std::make_unique<SsspSection>(); }};
}  // namespace

}  // namespace gpusched::validation
