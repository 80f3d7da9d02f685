// n x SSSP measured on the H100 against the simulation: whole runs, shape (streams, carveout), timelines, frontier sets.
#include "experiments/sssp/comparison.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <tuple>

#include "gpusched/support/input_error.h"
#include "gpusched/support/parallel_indices.h"
#include "gpusched/support/yaml_fields.h"
#include "gpusched/scheduler/registry.h"
#include "gpusched/sim/output/launch_span_recorder.h"
#include "gpusched/sim/simulation.h"
#include "gpusched/validation/measured_timeline.h"
#include "experiments/sssp/frontier_check.h"
#include "gpusched/workloads/kernel_spec.h"
#include "data_spec.h"
#include "host_timed_run.h"
#include "measured_table.h"
#include "numeric_csv.h"

namespace gpusched::validation {

namespace {

namespace fs = std::filesystem;

struct Simulated {
    double makespan_us = 0;
    long long launches = 0;
    std::vector<std::string> kernel;   ///< per launch: relax, minimum, update
    std::vector<int> stream;
    std::vector<Time> first, end;
};

/// How a run's launches are simulated: its mode `graph` as a CUDA graph; `stream` as the runner's
/// direct launches (host calls) when the GPU spec has host_launch_interval_ns, else queued.
workloads::HostIssue issue_of(const std::string& mode, const hw::GpuSpec& gpu) {
    if (mode == "graph") return workloads::HostIssue::graph;
    return gpu.host_launch_interval_ns ? workloads::HostIssue::calls : workloads::HostIssue::queued;
}

/// Simulates `spec`; issue calls: as the runner's direct-launch mode times it (event_timed_host_calls
/// over `streams` streams); graph: every launch issued at once from one CUDA graph; queued: at once.
Simulated simulate(const workloads::KernelSpec& spec, const hw::GpuSpec& gpu, const sim::DispatchPolicy& policy,
                   workloads::HostIssue issue, int streams = 1) {
    workloads::Application app = workloads::build_application({spec});
    if (issue == workloads::HostIssue::calls) app = event_timed_host_calls(std::move(app), streams);
    else app.host_issue = issue;
    sim::Simulation simulation(gpu, app, policy, "shared");
    sim::LaunchSpanRecorder recorder;  // memoised launches included
    simulation.observe(recorder);
    Simulated s;
    s.makespan_us = static_cast<double>(simulation.run().makespan) / 1e6;
    s.launches = static_cast<long long>(app.launches.size());
    for (const auto& l : app.launches) {
        const auto dash = l.name.rfind('-');
        s.kernel.push_back(dash == std::string::npos ? l.name : l.name.substr(dash + 1));
        s.stream.push_back(l.stream);
    }
    for (const auto& span : recorder.spans()) {
        s.first.push_back(span.first_start);
        s.end.push_back(span.end);
    }
    return s;
}

SsspConfig config_of(const TableRow& r) {
    return {r.text("graph"), static_cast<int>(r.integer("sources", 1, 1 << 24)),
            static_cast<int>(r.integer("streams", 1, 32)), static_cast<int>(r.integer("threads", 1, 1024)),
            r.text("carveout")};
}

auto key_of(const SsspConfig& c) { return std::tie(c.graph, c.sources, c.streams, c.threads, c.carveout); }

std::vector<SsspLaunchSpan> launch_spans(const std::vector<int>& stream, const std::vector<std::string>& kernel,
                                         const std::vector<Time>& first, const std::vector<Time>& end) {
    Time lo = ~Time{0};
    for (std::size_t i = 0; i < first.size(); ++i)
        if (first[i] != ~Time{0}) lo = std::min(lo, first[i]);
    std::vector<SsspLaunchSpan> out;
    for (std::size_t i = 0; i < first.size(); ++i)
        if (first[i] != ~Time{0})
            out.push_back({stream[i], kernel[i], static_cast<double>(first[i] - lo) / 1e6,
                           static_cast<double>(end[i] - lo) / 1e6});
    return out;
}

/// Launch spans and in-flight average of per-launch (first start, end) pairs.
void summarise_launches(const std::vector<std::string>& kernel, const std::vector<Time>& first,
                        const std::vector<Time>& end, double& span_us, double& in_flight, std::vector<double>& per_kernel) {
    Time lo = ~Time{0}, hi = 0;
    double busy = 0;
    std::map<std::string, std::vector<double>> spans;
    for (std::size_t i = 0; i < first.size(); ++i) {
        lo = std::min(lo, first[i]);
        hi = std::max(hi, end[i]);
        busy += static_cast<double>(end[i] - first[i]);
        spans[kernel[i]].push_back(static_cast<double>(end[i] - first[i]) / 1e6);
    }
    span_us = static_cast<double>(hi - lo) / 1e6;
    in_flight = hi > lo ? busy / static_cast<double>(hi - lo) : 0;
    per_kernel.clear();
    for (const std::string k : {"relax", "minimum", "update"}) per_kernel.push_back(median_of(spans[k]));
}

SsspTimeline compare_timeline(const std::string& file, const std::string& dir, const hw::GpuSpec& gpu,
                              const sim::DispatchPolicy& policy) {
    const MeasuredTimeline measured = read_measured_timeline(file);
    SsspTimeline t;
    t.name = fs::path(file).stem().string().substr(std::string("timeline_").size());
    const auto integer = [&](const std::string& key) {
        const auto v = parse_integer(measured.meta(key));
        if (!v || *v < 1 || *v > (1 << 24)) throw InputError(file + ": metadata '" + key + "' is not a positive integer");
        return static_cast<int>(*v);
    };
    const std::string graph_file = measured.meta("graph");
    t.config = {fs::path(graph_file).stem().string().substr(std::string("graph_").size()), integer("sources"),
                integer("streams"), integer("threads"), measured.meta("carveout")};
    const std::string mode = measured.meta("mode");
    t.mode = mode.substr(0, mode.find(' '));
    const workloads::KernelSpec spec = spec_with_data_file(measured.meta("workload_spec"), "sssp", "graph", dir, file);
    const Simulated sim = simulate(spec, gpu, policy, issue_of(t.mode, gpu), t.config.streams);
    std::vector<Time> first(sim.first.size(), ~Time{0}), end(sim.first.size(), 0);
    for (const auto& b : measured.blocks) {
        if (b.launch >= first.size())
            throw InputError(file + ": launch " + std::to_string(b.launch) + " beyond the simulated " +
                             std::to_string(first.size()) + " launches");
        first[b.launch] = std::min(first[b.launch], b.start);
        end[b.launch] = std::max(end[b.launch], b.end);
    }
    std::vector<std::string> kernel;
    std::vector<Time> mf, me;
    for (std::size_t i = 0; i < first.size(); ++i)
        if (first[i] != ~Time{0}) {
            kernel.push_back(sim.kernel[i]);
            mf.push_back(first[i]);
            me.push_back(end[i]);
        }
    summarise_launches(kernel, mf, me, t.measured_span_us, t.measured_in_flight, t.measured_kernel_us);
    summarise_launches(sim.kernel, sim.first, sim.end, t.simulated_span_us, t.simulated_in_flight, t.simulated_kernel_us);
    t.kernels = {"relax", "minimum", "update"};
    t.measured_launches = launch_spans(sim.stream, sim.kernel, first, end);
    t.simulated_launches = launch_spans(sim.stream, sim.kernel, sim.first, sim.end);
    return t;
}

}  // namespace

SsspComparison validate_sssp(const std::string& dir, const hw::GpuSpec& gpu, const std::string& policy_name,
                             const std::function<bool(const SsspConfig&)>& select) {
    const std::string runs = (fs::path(dir) / "runs.csv").string();
    (void)scheduler::make_policy(policy_name);  // an unknown name fails here, before any run
    const auto rows = read_run_table(runs, "SSSP run table",
                                     {"graph", "sources", "streams", "threads", "carveout", "mode", "launches",
                                      "median_ms", "min_ms", "max_ms", "workload_spec"});
    SsspComparison out;
    std::vector<std::string> graphs;
    for (const auto& r : rows) graphs.push_back(r.text("graph"));
    std::sort(graphs.begin(), graphs.end());
    out.reference = {graphs.front(), 32, 1, 256, "max-l1"};
    // By spec and issue (issue_of): graph mode as a CUDA graph, stream mode as direct host calls
    // when the GPU spec has host_launch_interval_ns (else queued). Each distinct run once, on the
    // machine's threads (each with a policy of its own), in the order of the table's rows.
    struct Run {
        workloads::KernelSpec spec;
        workloads::HostIssue issue;
        int streams;
    };
    std::vector<Run> runs_to_simulate;
    std::vector<std::size_t> run_of_point;
    std::map<std::pair<std::string, workloads::HostIssue>, std::size_t> run_index;
    for (const auto& r : rows) {
        const std::string mode = r.text("mode");
        if (mode != "graph" && mode != "stream") continue;
        const SsspConfig config = config_of(r);
        const bool reference = mode == "graph" && key_of(config) == key_of(out.reference);
        if (select && !select(config) && !reference) continue;
        SsspPoint p;
        p.config = config;
        p.mode = mode;
        p.launches = r.integer("launches", 1, 1000000);
        p.measured_us = r.number("median_ms") * 1000.0;
        if (!(p.measured_us > 0)) throw InputError(r.where() + ": median_ms must be positive");
        p.spread_percent = 100.0 * (r.number("max_ms") - r.number("min_ms")) * 1000.0 / p.measured_us;
        const workloads::KernelSpec spec = spec_with_data_file(r.text("workload_spec"), "sssp", "graph", dir, r.where());
        const std::pair<std::string, workloads::HostIssue> key{spec.to_string(), issue_of(mode, gpu)};
        auto it = run_index.find(key);
        if (it == run_index.end()) {
            it = run_index.emplace(key, runs_to_simulate.size()).first;
            runs_to_simulate.push_back({spec, key.second, config.streams});
        }
        run_of_point.push_back(it->second);
        out.points.push_back(p);
    }
    std::vector<Simulated> simulated(runs_to_simulate.size());
    for_each_index(runs_to_simulate.size(), [&](std::size_t i) {
        const auto own_policy = scheduler::make_policy(policy_name);
        const Run& run = runs_to_simulate[i];
        simulated[i] = simulate(run.spec, gpu, *own_policy, run.issue, run.streams);
    });
    for (std::size_t i = 0; i < out.points.size(); ++i) {
        SsspPoint& p = out.points[i];
        p.simulated_us = simulated[run_of_point[i]].makespan_us;
        p.simulated_launches = simulated[run_of_point[i]].launches;
        out.launches_match = out.launches_match && p.simulated_launches == p.launches;
    }
    const auto ref = std::find_if(out.points.begin(), out.points.end(), [&](const SsspPoint& p) {
        return p.mode == "graph" && key_of(p.config) == key_of(out.reference);
    });
    if (ref == out.points.end())
        throw InputError(runs + ": no graph-mode row for the reference point (" + out.reference.graph +
                         ", K=32, C=1, T=256, max-l1)");
    out.factor = ref->measured_us / ref->simulated_us;
    const auto stream_ref = std::find_if(out.points.begin(), out.points.end(), [&](const SsspPoint& p) {
        return p.mode == "stream" && key_of(p.config) == key_of(out.reference);
    });
    out.stream_factor = stream_ref == out.points.end() ? out.factor : stream_ref->measured_us / stream_ref->simulated_us;
    std::vector<double> graph_errors, stream_errors;
    for (auto& p : out.points) {
        p.calibrated_us = p.simulated_us * (p.mode == "stream" ? out.stream_factor : out.factor);
        p.error_percent = 100.0 * (p.calibrated_us - p.measured_us) / p.measured_us;
        (p.mode == "graph" ? graph_errors : stream_errors).push_back(std::abs(p.error_percent));
    }
    if (!graph_errors.empty()) {
        const ErrorSummary s = summarise_errors(graph_errors);
        out.median_abs_error_graph_percent = s.median;
        out.max_abs_error_graph_percent = s.max;
    }
    if (!stream_errors.empty()) {
        const ErrorSummary s = summarise_errors(stream_errors);
        out.median_abs_error_stream_percent = s.median;
        out.max_abs_error_stream_percent = s.max;
    }
    for (const auto& p : out.points) {
        if (p.mode != "graph") continue;
        for (const auto& q : out.points) {
            if (q.mode != "graph") continue;
            SsspConfig one = p.config, shared = p.config;
            one.streams = 1;
            shared.carveout = "max-shared";
            if (p.config.streams > 1 && key_of(q.config) == key_of(one))
                out.speedups.push_back({p.config, p.mode, q.measured_us / p.measured_us, q.simulated_us / p.simulated_us});
            if (p.config.carveout == "max-l1" && key_of(q.config) == key_of(shared))
                out.carveouts.push_back({q.config, p.mode, q.measured_us / p.measured_us, q.simulated_us / p.simulated_us});
        }
    }
    out.frontiers = check_sssp_frontiers(dir);
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir)) {
        const std::string name = e.path().filename().string();
        if (name.rfind("timeline_", 0) == 0 && e.path().extension() == ".csv") files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    out.timelines.resize(files.size());
    for_each_index(files.size(), [&](std::size_t i) {
        const auto own_policy = scheduler::make_policy(policy_name);
        out.timelines[i] = compare_timeline(files[i].string(), dir, gpu, *own_policy);
    });
    return out;
}

}  // namespace gpusched::validation
