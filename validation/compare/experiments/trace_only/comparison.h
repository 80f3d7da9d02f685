// Trace-only what-if: traces imported without Nsight Compute, predicted on fewer SMs and on another GPU, against measurement.
#pragma once

#include <string>
#include <vector>

#include "experiments/whatif/comparison.h"

namespace gpusched::validation {

/// One workload traced on two GPUs by the same script: the reference GPU's trace, imported alone
/// (no Nsight Compute), simulated on the other GPU's preset, against the other GPU's trace.
struct OtherGpuWorkload {
    std::string name;                 ///< e.g. "elementwise"
    std::string reference_gpu;        ///< the preset of the reference trace's device ("h100")
    std::string other_gpu;            ///< the preset of the other trace's device ("h200")
    double measured_reference_busy_us = 0;
    double measured_other_busy_us = 0;
    double simulated_reference_busy_us = 0;
    double simulated_other_busy_us = 0;
    double measured_ratio = 0;        ///< other / reference busy time, measured
    double predicted_ratio = 0;       ///< the same, simulated
    double busy_error_percent = 0;    ///< simulated vs measured busy time on the other GPU
    std::size_t kernels = 0;          ///< kernels compared (same names in the same order in both traces)
    double kernel_median_abs_error_percent = 0;  ///< per kernel on the other GPU: simulated vs measured duration
    double kernel_max_abs_error_percent = 0;
};

/// What the trace_only section compares.
struct TraceOnlyComparison {
    WhatIfComparison plain;           ///< torch/: traces without shapes, at each K
    bool has_shapes = false;
    std::string shapes_dir;           ///< relative to the data directory: torch_shapes, else torch_rounds_shapes/round1
    WhatIfComparison shapes;          ///< shapes_dir: traces with record_shapes (and FLOPs), at each K
    std::string other_dir;            ///< the other GPU's torch/ ("" = none)
    std::vector<OtherGpuWorkload> other;
    double other_median_abs_busy_error_percent = 0;
    double other_max_abs_busy_error_percent = 0;
    double other_kernel_median_abs_error_percent = 0;  ///< over every kernel of every workload
};

/// Compares `data_dir/torch` (and `data_dir/torch_shapes` when present, else the first round of
/// `data_dir/torch_rounds_shapes`) by validate_what_if without
/// the Nsight Compute join, and, when `data_dir/../h200/torch` (or `../h100/torch` for an H200
/// directory) holds `<w>_k<S>.json.gz` traces of the same workloads at the whole GPU, each reference
/// trace simulated on the other trace's GPU against it (profiled step `step` of both). InputError
/// naming the file for missing or malformed data.
TraceOnlyComparison validate_trace_only(const std::string& data_dir, const std::string& policy,
                                        const std::string& execution = "auto", int step = 3);

}  // namespace gpusched::validation
