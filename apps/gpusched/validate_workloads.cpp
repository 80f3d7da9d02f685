// SpMV, n x SSSP, streamcluster and APSP block-timeline comparison tables of `gpusched validate`, as text and JSON.
#include "validate_workloads.h"

#include <string>
#include <vector>

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
        << " (factor " << fixed(s.factor, 3) << "); direct launches (stream mode, simulated as host calls) at their own run of it"
        << " (factor " << fixed(s.stream_factor, 3) << ")\n";
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
        << fixed(s.max_abs_error_graph_percent, 1) << "%; direct launches (host calls): median |error| "
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
                             {"stream_factor", s.stream_factor},
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

void print_streamcluster(std::ostream& out, const validation::StreamclusterComparison& s, const std::string& dir) {
    const bool doc = !s.documented_keys.empty();
    out << "\nstreamcluster of " << dir << " (shared execution, generator defaults): kernel calibrated once at R = "
        << s.reference_rake << " (the median measured block span; factor " << fixed(s.factor, 3)
        << ", applied to the kernel's span, not to the launch overhead or the copies)";
    if (doc) out << "; doc_ columns: uncalibrated, with the documented " << s.documented_keys;
    out << "\n";
    std::vector<std::string> head{"R", "blocks", "kernel_us", "sim_us", "calibrated_us", "kernel_err_%", "span_us", "sim_span_us"};
    if (doc) head.insert(head.end(), {"doc_sim_us", "doc_err_%"});
    TextTable k(head, std::vector<bool>(head.size(), true));
    for (const auto& p : s.points) {
        std::vector<std::string> row{std::to_string(p.rake), std::to_string(p.simulated.blocks), fixed(p.measured_kernel_us, 1),
                                     fixed(p.simulated.kernel_us, 1), fixed(p.calibrated_kernel_us, 1),
                                     fixed(p.kernel_error_percent, 1), fixed(p.measured_span_us, 1),
                                     fixed(p.simulated.span_us, 1)};
        if (doc) row.insert(row.end(), {fixed(p.documented.kernel_us, 1), fixed(p.documented_kernel_error_percent, 1)});
        k.add_row(row);
    }
    k.print(out);
    out << "kernel: median |error| " << fixed(s.median_abs_kernel_error_percent, 1) << "%, max "
        << fixed(s.max_abs_kernel_error_percent, 1) << "% (calibrated)";
    if (doc)
        out << "; documented keys: median " << fixed(s.median_abs_documented_kernel_error_percent, 1) << "%, max "
            << fixed(s.max_abs_documented_kernel_error_percent, 1) << "% (uncalibrated)";
    out << "; grids " << (s.grids_match ? "identical to the runner's" : "DIFFER from the runner's") << "\n";
    std::vector<std::string> copy_head{"R", "d2h_pinned_us", "sim", "err_%", "d2h_pageable_us", "sim", "err_%",
                                       "total_pinned_us", "calibrated", "total_pageable_us", "calibrated"};
    if (doc) copy_head.insert(copy_head.end(), {"doc_pinned", "doc_pageable"});
    TextTable c(copy_head, std::vector<bool>(copy_head.size(), true));
    for (const auto& p : s.points) {
        std::vector<std::string> row{std::to_string(p.rake), fixed(p.measured_d2h_pinned_us, 1),
                                     fixed(p.simulated.d2h_pinned_us, 1), fixed(p.d2h_pinned_error_percent, 1),
                                     fixed(p.measured_d2h_pageable_us, 1), fixed(p.simulated.d2h_pageable_us, 1),
                                     fixed(p.d2h_pageable_error_percent, 1), fixed(p.measured_total_pinned_us, 1),
                                     fixed(p.calibrated_total_pinned_us, 1), fixed(p.measured_total_pageable_us, 1),
                                     fixed(p.calibrated_total_pageable_us, 1)};
        if (doc) row.insert(row.end(), {fixed(p.documented.total_pinned_us, 1), fixed(p.documented.total_pageable_us, 1)});
        c.add_row(row);
    }
    c.print(out);
    out << "copies (uncalibrated): pinned median |error| " << fixed(s.median_abs_d2h_pinned_error_percent, 1) << "%, max "
        << fixed(s.max_abs_d2h_pinned_error_percent, 1) << "%; pageable median " << fixed(s.median_abs_d2h_pageable_error_percent, 1)
        << "%, max " << fixed(s.max_abs_d2h_pageable_error_percent, 1) << "%; calibrated totals: pinned median |error| "
        << fixed(s.median_abs_total_pinned_error_percent, 1) << "%, pageable "
        << fixed(s.median_abs_total_pageable_error_percent, 1) << "%\n";
    const auto best = [&](const char* kind, const validation::StreamclusterBest& b) {
        out << "best R, " << kind << ": measured " << b.measured << ", simulated " << b.simulated << ", calibrated "
            << b.calibrated;
        if (doc) out << ", documented keys " << b.documented;
        out << "\n";
    };
    best("pinned", s.best_pinned);
    best("pageable", s.best_pageable);
    if (s.timelines == 0) return;
    TextTable t({"timeline R", "blocks", "span_us", "sim_span_us", "SMs", "sim_SMs", "max/SM", "sim_max/SM", "misplaced"},
                std::vector<bool>(9, true));
    for (const auto& p : s.points)
        if (p.has_timeline)
            t.add_row({std::to_string(p.rake), std::to_string(p.timeline_blocks), fixed(p.timeline_span_us, 1),
                       fixed(p.simulated.span_us, 1), std::to_string(p.measured_sms), std::to_string(p.simulated_sms),
                       std::to_string(p.measured_max_per_sm), std::to_string(p.simulated_max_per_sm),
                       std::to_string(p.misplaced)});
    t.print(out);
    out << "timelines: uncalibrated, generator defaults; " << s.total_misplaced << " blocks on another SM in all\n";
}

nlohmann::ordered_json streamcluster_json(const validation::StreamclusterComparison& s) {
    const auto best = [](const validation::StreamclusterBest& b) {
        return nlohmann::ordered_json{{"measured", b.measured}, {"simulated", b.simulated}, {"calibrated", b.calibrated},
                                      {"documented", b.documented}};
    };
    const auto simulated = [](const validation::StreamclusterSimulated& x) {
        return nlohmann::ordered_json{{"blocks", x.blocks}, {"kernel_us", x.kernel_us}, {"span_us", x.span_us},
                                      {"d2h_pinned_us", x.d2h_pinned_us}, {"d2h_pageable_us", x.d2h_pageable_us},
                                      {"total_pinned_us", x.total_pinned_us}, {"total_pageable_us", x.total_pageable_us}};
    };
    nlohmann::ordered_json j{{"reference_rake", s.reference_rake},
                             {"factor", s.factor},
                             {"documented_keys", s.documented_keys},
                             {"median_abs_kernel_error_percent", s.median_abs_kernel_error_percent},
                             {"max_abs_kernel_error_percent", s.max_abs_kernel_error_percent},
                             {"median_abs_d2h_pinned_error_percent", s.median_abs_d2h_pinned_error_percent},
                             {"max_abs_d2h_pinned_error_percent", s.max_abs_d2h_pinned_error_percent},
                             {"median_abs_d2h_pageable_error_percent", s.median_abs_d2h_pageable_error_percent},
                             {"max_abs_d2h_pageable_error_percent", s.max_abs_d2h_pageable_error_percent},
                             {"median_abs_total_pinned_error_percent", s.median_abs_total_pinned_error_percent},
                             {"median_abs_total_pageable_error_percent", s.median_abs_total_pageable_error_percent},
                             {"median_abs_documented_kernel_error_percent", s.median_abs_documented_kernel_error_percent},
                             {"max_abs_documented_kernel_error_percent", s.max_abs_documented_kernel_error_percent},
                             {"best_rake_pinned", best(s.best_pinned)},
                             {"best_rake_pageable", best(s.best_pageable)},
                             {"timelines", s.timelines},
                             {"misplaced_blocks", s.total_misplaced},
                             {"grids_match", s.grids_match}};
    for (const auto& p : s.points) {
        nlohmann::ordered_json q{{"rake", p.rake},
                                 {"tines", p.tines},
                                 {"grid_blocks", p.grid_blocks},
                                 {"workload_spec", p.workload_spec},
                                 {"measured_kernel_us", p.measured_kernel_us},
                                 {"measured_span_us", p.measured_span_us},
                                 {"measured_d2h_pinned_us", p.measured_d2h_pinned_us},
                                 {"measured_d2h_pageable_us", p.measured_d2h_pageable_us},
                                 {"measured_total_pinned_us", p.measured_total_pinned_us},
                                 {"measured_total_pageable_us", p.measured_total_pageable_us},
                                 {"simulated", simulated(p.simulated)},
                                 {"calibrated_kernel_us", p.calibrated_kernel_us},
                                 {"calibrated_total_pinned_us", p.calibrated_total_pinned_us},
                                 {"calibrated_total_pageable_us", p.calibrated_total_pageable_us},
                                 {"kernel_error_percent", p.kernel_error_percent},
                                 {"span_error_percent", p.span_error_percent},
                                 {"d2h_pinned_error_percent", p.d2h_pinned_error_percent},
                                 {"d2h_pageable_error_percent", p.d2h_pageable_error_percent},
                                 {"total_pinned_error_percent", p.total_pinned_error_percent},
                                 {"total_pageable_error_percent", p.total_pageable_error_percent}};
        if (!s.documented_keys.empty()) {
            q["documented"] = simulated(p.documented);
            q["documented_kernel_error_percent"] = p.documented_kernel_error_percent;
        }
        if (p.has_timeline)
            q["timeline"] = {{"blocks", p.timeline_blocks}, {"span_us", p.timeline_span_us},
                             {"misplaced_blocks", p.misplaced}, {"measured_sms", p.measured_sms},
                             {"simulated_sms", p.simulated_sms}, {"measured_max_per_sm", p.measured_max_per_sm},
                             {"simulated_max_per_sm", p.simulated_max_per_sm}};
        j["points"].push_back(q);
    }
    return j;
}

void print_apsp_timelines(std::ostream& out, const validation::ApspTimelineComparison& s, const std::string& dir,
                          const std::string& policy) {
    out << "\nAPSP block timelines of " << dir << " (whole runs, every launch queued; Init + the APSP launches "
           "simulated uncalibrated, shared execution, " << policy << "); columns measured/simulated, us\n";
    const auto pair = [](double m, double sim) { return fixed(m, 2) + "/" + fixed(sim, 2); };
    TextTable t({"case", "launches", "blocks", "overhead_%", "span_us", "span_err_%", "launch_span_us", "block_us",
                 "gap_us", "waves", "misplaced"},
                {false, true, true, true, true, true, true, true, true, true, true});
    for (const auto& c : s.cases)
        t.add_row({c.name, std::to_string(c.launches), std::to_string(c.measured.blocks), fixed(c.overhead_percent, 2),
                   pair(c.measured.span_us, c.simulated.span_us), fixed(c.span_error_percent, 1),
                   pair(c.measured.launch_span_median_us, c.simulated.launch_span_median_us),
                   pair(c.measured.block_median_us, c.simulated.block_median_us),
                   pair(c.measured.gap_median_us, c.simulated.gap_median_us),
                   std::to_string(c.measured.waves) + "/" + std::to_string(c.simulated.waves), std::to_string(c.misplaced)});
    t.print(out);
    out << "launch_span, block, gap: medians over the APSP launches (gap: last block end of launch k -> first block start "
           "of k+1); overhead: instrumented vs plain whole run (runner); misplaced: blocks on another SM, per launch, "
           "summed; block counts "
        << (s.blocks_match ? "identical to the runner's" : "DIFFER from the runner's") << "\n";
}

nlohmann::ordered_json apsp_timelines_json(const validation::ApspTimelineComparison& s) {
    const auto stats = [](const validation::ApspTimelineStats& x) {
        return nlohmann::ordered_json{{"blocks", x.blocks},
                                      {"span_us", x.span_us},
                                      {"launch_span_median_us", x.launch_span_median_us},
                                      {"block_median_us", x.block_median_us},
                                      {"gap_median_us", x.gap_median_us},
                                      {"gap_min_us", x.gap_min_us},
                                      {"gap_max_us", x.gap_max_us},
                                      {"waves", x.waves},
                                      {"sms", x.sms}};
    };
    nlohmann::ordered_json j{{"blocks_match", s.blocks_match}, {"misplaced_blocks", s.total_misplaced}};
    for (const auto& c : s.cases)
        j["cases"].push_back({{"case", c.name},
                              {"workload_spec", c.workload_spec},
                              {"n", c.n},
                              {"block", c.block},
                              {"launches", c.launches},
                              {"blocks_per_launch", c.blocks_per_launch},
                              {"blocks_per_sm", c.blocks_per_sm},
                              {"blocks_match", c.blocks_match},
                              {"overhead_percent", c.overhead_percent},
                              {"measured", stats(c.measured)},
                              {"simulated", stats(c.simulated)},
                              {"span_error_percent", c.span_error_percent},
                              {"launch_span_error_percent", c.launch_span_error_percent},
                              {"block_error_percent", c.block_error_percent},
                              {"gap_error_percent", c.gap_error_percent},
                              {"misplaced_blocks", c.misplaced}});
    return j;
}

}  // namespace gpusched::cli
