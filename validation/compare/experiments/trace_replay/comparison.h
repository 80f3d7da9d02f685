// A user's profiler trace against its own simulation: per profiled step the span, per kernel the start and duration.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpusched/hw/gpu_spec.h"

namespace gpusched::validation {

/// One kernel of a step: measured and simulated, times from the step's first imported event, in us.
struct TraceKernel {
    std::size_t index = 0;  ///< position in the step, launch order
    std::string name;
    double measured_start_us = 0, simulated_start_us = 0;
    double measured_us = 0, simulated_us = 0;  ///< durations
    double start_error_percent_of_span = 0;    ///< 100 (simulated - measured start) / the measured step span
};

/// One profiled step imported alone (as `gpusched import torch --steps N` does) and simulated.
struct TraceStep {
    std::int64_t step = 0;
    std::size_t kernels = 0;
    double measured_span_us = 0;   ///< first imported event to the last kernel end, measured
    double simulated_span_us = 0;  ///< time 0 to the last kernel end, simulated
    double span_error_percent = 0;
    double measured_busy_us = 0, simulated_busy_us = 0;  ///< union of kernel intervals
    double simulated_idle_percent = 0;  ///< 100 (span - busy) / span: the GPU idle (host-bound, syncs, launch overhead)
    /// Where the simulated span went (sim/output/gpu_idle_split.h), in % of it: kernels ready or running, the GPU
    /// idle in launch overhead, idle with no kernel on its way (host-bound); and the host's time blocked in syncs.
    double simulated_gpu_busy_percent = 0;
    double simulated_launch_overhead_percent = 0;
    double simulated_host_bound_percent = 0;
    double simulated_sync_wait_us = 0;
    double start_median_abs_error_percent = 0;  ///< per kernel, |start error| in % of the measured span
    double start_max_abs_error_percent = 0;
    double duration_median_abs_error_percent = 0;
    std::vector<TraceKernel> kernel_rows;
};

/// The whole comparison of one trace.
struct TraceComparison {
    std::string trace;
    std::string gpu;               ///< the preset simulated (the trace's device unless one was given)
    std::string policy, execution;
    std::vector<TraceStep> steps;
    double span_median_abs_error_percent = 0, span_max_abs_error_percent = 0;
    double start_max_abs_error_percent = 0;  ///< over every kernel of every step
};

/// Imports each ProfilerStep of `trace` (Kineto JSON, gzip or plain) alone with its host timeline,
/// kernel families and shapes (as `gpusched import torch --steps N` does), simulates it on `gpu`
/// (empty: the preset the trace's device maps to) with `policy` and `execution`, and compares spans
/// and kernel starts with the trace. A trace without step markers is one step (0). InputError naming
/// the file for a trace that cannot be read or imported.
TraceComparison validate_trace(const std::string& trace, const std::string& gpu, const std::string& policy,
                               const std::string& execution = "auto");

}  // namespace gpusched::validation
