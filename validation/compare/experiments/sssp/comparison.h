// n x SSSP validation: measured whole runs, stream speedups and carveout effects against the simulation; frontier hard check.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "gpusched/hw/gpu_spec.h"
#include "experiments/sssp/frontier_check.h"

namespace gpusched::validation {

/// One configuration of the runner's `sssp` experiment.
struct SsspConfig {
    std::string graph;       ///< "n4096_d8"
    int sources = 0;         ///< K
    int streams = 0;         ///< C
    int threads = 0;         ///< T of all three kernels
    std::string carveout;    ///< max-l1, max-shared
};

/// One measured whole run (a mode of a configuration) against the simulation of its workload_spec.
struct SsspPoint {
    SsspConfig config;
    std::string mode;               ///< "graph" (replayed CUDA graph) or "stream" (direct launches)
    long long launches = 0;         ///< as measured (runs.csv)
    long long simulated_launches = 0;
    double measured_us = 0;         ///< median of the runs
    double spread_percent = 0;      ///< 100 (max - min) / median
    double simulated_us = 0;        ///< simulated makespan
    double calibrated_us = 0;       ///< simulated x the calibration factor
    double error_percent = 0;       ///< 100 (calibrated - measured) / measured
};

/// Speedup from 1 to C streams at fixed graph, K, T, carveout and mode: t(C=1) / t(C).
struct SsspSpeedup {
    SsspConfig config;              ///< config.streams = C
    std::string mode;
    double measured = 0;
    double simulated = 0;
};

/// Carveout effect at fixed graph, K, C, T and mode: t(max-shared) / t(max-l1).
struct SsspCarveout {
    SsspConfig config;              ///< config.carveout = "max-shared"
    std::string mode;
    double measured = 0;
    double simulated = 0;
};

/// One launch of a timeline: its stream, kernel and span (ns from the timeline's first block start).
struct SsspLaunchSpan {
    int stream = 0;
    std::string kernel;             ///< relax, minimum, update
    double start_us = 0;
    double end_us = 0;
};

/// A measured block timeline of K instances on C streams against the simulation of the same spec.
struct SsspTimeline {
    std::string name;               ///< "n4096_d8_graph_k4_c1_t256"
    SsspConfig config;
    std::string mode;
    double measured_span_us = 0;    ///< first block start to last block end
    double simulated_span_us = 0;
    double measured_in_flight = 0;  ///< sum of launch spans / span: launches running at once, on average
    double simulated_in_flight = 0;
    /// Median launch span (first block start to last block end) per kernel: relax, minimum, update.
    std::vector<std::string> kernels;
    std::vector<double> measured_kernel_us;
    std::vector<double> simulated_kernel_us;
    /// Every launch in issue order (streams from the simulated application, whose issue order is the runner's).
    std::vector<SsspLaunchSpan> measured_launches;
    std::vector<SsspLaunchSpan> simulated_launches;
};

/// One-point calibration, as the papers do: f = measured / simulated at the reference point,
/// graph mode of the first graph (by name) with K = 32, C = 1, T = 256, carveout max-l1 (one
/// instance at a time, no host in the run); every simulated graph-mode time is multiplied by f.
/// Direct launches (stream mode) are simulated as host calls when the GPU spec has
/// host_launch_interval_ns; they are host-bound, so f (which stands for missing kernel time)
/// does not apply to them: they are calibrated at their own point, the stream-mode run of
/// the reference configuration (stream_factor; f when there is none).
struct SsspComparison {
    std::vector<SsspPoint> points;          ///< runs.csv order (graph and stream modes)
    SsspConfig reference;
    double factor = 0;
    double stream_factor = 0;                    ///< stream mode's own one-point factor
    double median_abs_error_graph_percent = 0;   ///< graph mode
    double max_abs_error_graph_percent = 0;
    double median_abs_error_stream_percent = 0;  ///< direct launches (host-bound: host calls)
    double max_abs_error_stream_percent = 0;
    std::vector<SsspSpeedup> speedups;      ///< graph mode, every C > 1 with a C = 1 point
    std::vector<SsspCarveout> carveouts;    ///< graph mode
    std::vector<SsspFrontierCheck> frontiers;
    std::vector<SsspTimeline> timelines;
    bool launches_match = true;             ///< every simulated launch count equals runs.csv's
};

/// Reads `DIR/runs.csv`, `DIR/frontier.csv` and the `timeline_*.csv` files of the runner's
/// `sssp` experiment and simulates each selected configuration's workload_spec (graph read from
/// DIR) on `gpu` with `policy` and the `shared` execution model; the `-inst` rows are compared
/// through their timelines. `select` (all when empty) picks the configurations to simulate;
/// the reference point is always simulated. InputError naming the file and line for malformed data.
SsspComparison validate_sssp(const std::string& dir, const hw::GpuSpec& gpu, const std::string& policy,
                             const std::function<bool(const SsspConfig&)>& select = {});

}  // namespace gpusched::validation
