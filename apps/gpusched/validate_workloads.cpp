// SpMV and n x SSSP comparison tables of `gpusched validate`, as text and JSON.
#include "validate_workloads.h"

#include <string>

#include "table.h"

namespace gpusched::cli {

namespace {

std::string config_name(const validation::SsspConfig& c) {
    return c.graph + " K=" + std::to_string(c.sources) + " C=" + std::to_string(c.streams) +
           " T=" + std::to_string(c.threads) + " " + c.carveout;
}

nlohmann::ordered_json config_json(const validation::SsspConfig& c) {
    return {{"graph", c.graph}, {"sources", c.sources}, {"streams", c.streams}, {"threads", c.threads},
            {"carveout", c.carveout}};
}

}  // namespace

void print_spmv(std::ostream& out, const validation::SpmvComparison& s, const std::string& dir) {
    out << "\nSpMV of " << dir << " (shared execution): block span calibrated once at " << s.reference_matrix << " "
        << s.reference_format << " (factor " << fixed(s.factor, 3) << ", applied to each launch's span, not to launch overheads)\n";
    TextTable t({"matrix", "format", "blocks", "span_us", "sim_span_us", "span_err_%", "event_us", "sim_event_us",
                 "event_err_%", "misplaced", "start_ks"},
                {false, false, true, true, true, true, true, true, true, true, true});
    for (const auto& p : s.points)
        t.add_row({p.matrix, p.format, std::to_string(p.blocks), fixed(p.measured_span_us, 3),
                   fixed(p.calibrated_span_us, 3), fixed(p.span_error_percent, 1), fixed(p.measured_event_us, 3),
                   fixed(p.calibrated_us, 3), fixed(p.event_error_percent, 1),
                   p.has_timeline ? std::to_string(p.misplaced) : "-", p.has_timeline ? fixed(p.start_distance, 3) : "-"});
    t.print(out);
    TextTable f({"format", "points", "median_|span_err|_%", "max_|span_err|_%", "median_event_err_%"},
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

void print_sssp(std::ostream& out, const validation::SsspComparison& s, const std::string& dir) {
    out << "\nn x SSSP of " << dir << " (shared execution): calibrated once at graph mode " << config_name(s.reference)
        << " (factor " << fixed(s.factor, 3) << ")\n";
    TextTable t({"graph", "K", "C", "T", "carveout", "mode", "launches", "measured_ms", "spread_%", "simulated_ms",
                 "calibrated_ms", "error_%"},
                {false, true, true, true, false, false, true, true, true, true, true, true});
    for (const auto& p : s.points)
        t.add_row({p.config.graph, std::to_string(p.config.sources), std::to_string(p.config.streams),
                   std::to_string(p.config.threads), p.config.carveout, p.mode, std::to_string(p.launches),
                   fixed(p.measured_us / 1000, 3), fixed(p.spread_percent, 1), fixed(p.simulated_us / 1000, 3),
                   fixed(p.calibrated_us / 1000, 3), fixed(p.error_percent, 1)});
    t.print(out);
    out << "graph mode: median |error| " << fixed(s.median_abs_error_graph_percent, 1) << "%, max "
        << fixed(s.max_abs_error_graph_percent, 1) << "%; direct launches (host launch rate not modelled): median |error| "
        << fixed(s.median_abs_error_stream_percent, 1) << "%, max " << fixed(s.max_abs_error_stream_percent, 1)
        << "%; launch counts " << (s.launches_match ? "identical" : "DIFFER") << "\n";
    TextTable sp({"graph mode", "speedup C=1 -> C measured", "simulated"}, {false, true, true});
    for (const auto& x : s.speedups)
        sp.add_row({config_name(x.config), fixed(x.measured, 2) + "x", fixed(x.simulated, 2) + "x"});
    sp.print(out);
    TextTable cv({"graph mode", "max-shared / max-l1 measured", "simulated"}, {false, true, true});
    for (const auto& x : s.carveouts)
        cv.add_row({config_name(x.config), fixed(x.measured, 3), fixed(x.simulated, 3)});
    cv.print(out);
    TextTable tl({"timeline", "span_us", "sim_span_us", "in_flight", "sim_in_flight", "relax_us", "sim", "minimum_us",
                  "sim", "update_us", "sim"},
                 {false, true, true, true, true, true, true, true, true, true, true});
    for (const auto& x : s.timelines)
        tl.add_row({x.name, fixed(x.measured_span_us, 1), fixed(x.simulated_span_us, 1), fixed(x.measured_in_flight, 2),
                    fixed(x.simulated_in_flight, 2), fixed(x.measured_kernel_us[0], 2), fixed(x.simulated_kernel_us[0], 2),
                    fixed(x.measured_kernel_us[1], 2), fixed(x.simulated_kernel_us[1], 2),
                    fixed(x.measured_kernel_us[2], 2), fixed(x.simulated_kernel_us[2], 2)});
    tl.print(out);
    out << "timelines: uncalibrated; per-kernel columns are median launch spans (first block start to last end)\n";
    for (const auto& f : s.frontiers)
        out << "frontier check " << f.graph << ": " << f.sources << " sources, " << f.iterations << " iterations, "
            << (f.mismatches == 0 ? "identical to the CPU reference" : std::to_string(f.mismatches) + " MISMATCHES, first " + f.first_mismatch)
            << "\n";
}

nlohmann::ordered_json spmv_json(const validation::SpmvComparison& s) {
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

nlohmann::ordered_json sssp_json(const validation::SsspComparison& s) {
    nlohmann::ordered_json j{{"reference", config_json(s.reference)},
                             {"factor", s.factor},
                             {"median_abs_error_graph_percent", s.median_abs_error_graph_percent},
                             {"max_abs_error_graph_percent", s.max_abs_error_graph_percent},
                             {"median_abs_error_stream_percent", s.median_abs_error_stream_percent},
                             {"max_abs_error_stream_percent", s.max_abs_error_stream_percent},
                             {"launches_match", s.launches_match}};
    for (const auto& p : s.points)
        j["points"].push_back({{"config", config_json(p.config)}, {"mode", p.mode}, {"launches", p.launches},
                               {"measured_us", p.measured_us}, {"spread_percent", p.spread_percent},
                               {"simulated_us", p.simulated_us}, {"calibrated_us", p.calibrated_us},
                               {"error_percent", p.error_percent}});
    for (const auto& x : s.speedups)
        j["speedups"].push_back({{"config", config_json(x.config)}, {"mode", x.mode}, {"measured", x.measured},
                                 {"simulated", x.simulated}});
    for (const auto& x : s.carveouts)
        j["carveouts"].push_back({{"config", config_json(x.config)}, {"mode", x.mode}, {"measured", x.measured},
                                  {"simulated", x.simulated}});
    for (const auto& x : s.timelines) {
        nlohmann::ordered_json t{{"name", x.name},
                                 {"config", config_json(x.config)},
                                 {"mode", x.mode},
                                 {"measured_span_us", x.measured_span_us},
                                 {"simulated_span_us", x.simulated_span_us},
                                 {"measured_in_flight", x.measured_in_flight},
                                 {"simulated_in_flight", x.simulated_in_flight}};
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

}  // namespace gpusched::cli
