// What-if on fewer SMs: an imported whole-GPU trace predicted at K SMs against the same workload measured in green contexts of K SMs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpusched/hw/gpu_spec.h"

namespace gpusched::validation {

/// One kernel of a workload's profiled iteration: measured and simulated durations per K.
struct WhatIfKernel {
    std::size_t index = 0;         ///< position in the iteration (launch order)
    std::string name;              ///< the imported kernel name
    std::uint64_t blocks = 0;
    int blocks_per_sm = 0;         ///< occupancy on the reference GPU
    std::vector<double> measured_us;   ///< per K of WhatIfWorkload::sms; 0 where the measured run lacks it
    std::vector<double> simulated_us;  ///< per K
    std::vector<bool> waves_change;    ///< per K: ceil(blocks / (o K)) differs from the reference's wave count
    /// Per K, per other profiled step of the traces (WhatIfWorkload::other_steps): the kernel's measured
    /// duration in that step, 0 where that step lacks it. The run-to-run spread of the measurement.
    std::vector<std::vector<double>> measured_other_steps_us;
};

/// One K of one workload: the profiled iteration's busy time (union of kernel intervals).
struct WhatIfPoint {
    int sms = 0;
    double measured_busy_us = 0;
    double simulated_busy_us = 0;
    double measured_ratio = 0;     ///< T(K) / T(reference), measured
    double predicted_ratio = 0;    ///< the same, simulated
    double error_percent = 0;      ///< 100 (predicted / measured ratio - 1)
    bool same_kernels = true;      ///< the measured run has the reference run's kernels (count and names, in order)
};

/// One workload: its whole-GPU trace imported (with Nsight Compute totals) and predicted at each K.
struct WhatIfWorkload {
    std::string name;              ///< e.g. "cnn"
    std::string gpu;               ///< the preset the trace's device maps to
    int reference_sms = 0;         ///< the trace's GPU's SM count (132)
    std::vector<int> sms;          ///< the K of the points, descending, the reference first
    std::vector<WhatIfPoint> points;  ///< per K of `sms` (the reference: ratio 1)
    std::vector<WhatIfKernel> kernels;
    std::vector<std::int64_t> other_steps;  ///< the profiled steps of every trace besides the one compared
    double reference_busy_error_percent = 0;  ///< simulated vs measured busy time on the reference GPU
    double reference_kernel_median_abs_error_percent = 0;  ///< per-kernel reproduction on the reference GPU
    double reference_kernel_max_abs_error_percent = 0;
};

/// One measured point of the project's own kernels in green contexts (APSP queued curves, series).
struct WhatIfOwnPoint {
    std::string experiment;        ///< "apsp-minplus bs16", "apsp-fw bs16", "series t256"
    std::string point;             ///< "n=90", "blocks=132"
    int sms = 0;
    double measured_ratio = 0;     ///< T(K) / T(reference), measured
    double predicted_ratio = 0;
    double error_percent = 0;
};

/// The what-if comparison.
struct WhatIfComparison {
    std::vector<WhatIfWorkload> workloads;
    std::vector<WhatIfOwnPoint> own;      ///< empty without green/
    std::string sm_rule;                  ///< which SMs a GPU of K SMs keeps (partition_order or the id rule)
    double median_abs_busy_error_percent = 0;  ///< over all workloads and K below the reference
    double max_abs_busy_error_percent = 0;
    double reference_kernel_median_abs_error_percent = 0;  ///< over every kernel of every workload
    double reference_kernel_max_abs_error_percent = 0;
    std::size_t wave_change_kernels = 0;          ///< (kernel, K) pairs whose wave count changes, measured there
    std::size_t wave_change_within_3_percent = 0; ///< of those, ratio predicted within 3%
    double wave_change_median_abs_error_percent = 0;
    /// The measurement's own spread for the same pairs: for each pair and each other profiled step of
    /// the same runs, that step's measured ratio against the compared step's (how many comparisons,
    /// how many within 3%). A model judged on one step can hardly do better than this share.
    std::size_t wave_change_step_comparisons = 0;
    std::size_t wave_change_steps_within_3_percent = 0;
    double own_median_abs_error_percent = 0;
    double own_max_abs_error_percent = 0;
    std::string own_series_work_file;     ///< the series kernel's work keys' file ("" = the generator's defaults)
};

/// The GPU of the what-if question: `gpu` with `sms` SMs (hw::with_sm_count), named like the
/// sm_count override names it ("h100 (sm_count=64)").
hw::GpuSpec what_if_gpu(const hw::GpuSpec& gpu, int sms);

/// Compares `torch_dir` (`<w>_k<K>.json.gz` Kineto traces of the workloads cnn, transformer,
/// gemm and elementwise, `ncu/<w>.csv.gz`) and, when it exists, `green_dir` (`k<K>/` with
/// apsp_*_queued.csv and binomial.csv; the series' work keys from `k<K>/binomial_work.txt`, else
/// `curves/binomial_work.txt` beside `green_dir`): each workload's whole-GPU trace (K = the device's SM
/// count) is imported in process (as the torch import with step STEP, then the ncu import do),
/// simulated with `policy` and `execution` on what_if_gpu(trace GPU, K) for every K measured, and
/// step STEP of each measured trace gives the measured busy time and kernel durations. InputError
/// naming the file for missing or malformed data. `join_ncu` false: the traces alone (no ncu/ join),
/// as a user without Nsight Compute imports them.
WhatIfComparison validate_what_if(const std::string& torch_dir, const std::string& green_dir, const std::string& policy,
                                  const std::string& execution = "auto", int step = 3, bool join_ncu = true);

}  // namespace gpusched::validation
