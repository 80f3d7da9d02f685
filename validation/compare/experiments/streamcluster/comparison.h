// streamcluster validation: measured pgain kernel and D2H copy times over the rake size R against the simulation.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpusched/hw/gpu_spec.h"
#include "gpusched/validation/measured_timeline.h"

namespace gpusched::validation {

/// The documented calibration of the generator's latency key (docs/workloads.md, `streamcluster`:
/// 88 ns per distance-loop trip at R = 512, i.e. 174 cycles at 1980 MHz, fitted to the same data).
/// validate_streamcluster simulates it beside the defaults, in columns labelled as such.
inline constexpr const char* kStreamclusterDocumentedKeys = "dim_latency_cycles=174";

/// One simulation of a rake size: the kernel alone (copy=none) and with each kind of copies.
struct StreamclusterSimulated {
    std::uint64_t blocks = 0;        ///< simulated blocks of the gain launch
    double kernel_us = 0;            ///< makespan with copy=none (kernel_launch_ns + the block span)
    double span_us = 0;              ///< first block start to last block end
    double d2h_pinned_us = 0;        ///< makespan with copy=pinned less kernel_us
    double d2h_pageable_us = 0;      ///< makespan with copy=pageable less kernel_us
    double total_pinned_us = 0;      ///< makespan with copy=pinned
    double total_pageable_us = 0;    ///< makespan with copy=pageable
};

/// One measured rake size (a row of runs.csv) against its simulations.
struct StreamclusterPoint {
    int rake = 0;
    std::uint64_t tines = 0;               ///< T = ceil(points / R), as the runner recorded
    std::uint64_t grid_blocks = 0;         ///< blocks the runner launched
    std::string workload_spec;             ///< the spec simulated (copy= set per simulation)
    double measured_kernel_us = 0;         ///< kernel_median_ms (CUDA events, launch latency hidden)
    double measured_span_us = 0;           ///< makespan_median_us (block records)
    double measured_d2h_pinned_us = 0;     ///< d2h_pinned_median_ms
    double measured_d2h_pageable_us = 0;   ///< d2h_pageable_median_ms
    double measured_total_pinned_us = 0;   ///< total_pinned_median_ms
    double measured_total_pageable_us = 0; ///< total_pageable_median_ms
    StreamclusterSimulated simulated;      ///< the generator's default keys
    StreamclusterSimulated documented;     ///< with the documented keys (when asked for)
    /// Default keys, one-point calibrated: calibrated = simulated + (f - 1) x simulated span.
    double calibrated_kernel_us = 0;
    double calibrated_total_pinned_us = 0;
    double calibrated_total_pageable_us = 0;
    double kernel_error_percent = 0;       ///< 100 (calibrated kernel - measured kernel) / measured kernel
    double span_error_percent = 0;         ///< 100 (f x simulated span - measured span) / measured span
    double d2h_pinned_error_percent = 0;   ///< simulated against measured copies (no calibration)
    double d2h_pageable_error_percent = 0;
    double total_pinned_error_percent = 0; ///< calibrated totals against the measured ones
    double total_pageable_error_percent = 0;
    double documented_kernel_error_percent = 0;  ///< documented keys, uncalibrated
    /// Timeline comparison where DIR holds timeline_r<R>.csv (default keys, uncalibrated).
    bool has_timeline = false;
    double timeline_span_us = 0;           ///< the timeline's own span (one call, not the median)
    int timeline_blocks = 0;
    int misplaced = 0;                     ///< blocks on another SM than measured
    int measured_sms = 0;                  ///< SMs the measured blocks ran on
    int simulated_sms = 0;
    int measured_max_per_sm = 0;           ///< most blocks on one SM
    int simulated_max_per_sm = 0;
    std::vector<MeasuredBlock> measured_blocks;    ///< kept only when asked for
    std::vector<MeasuredBlock> simulated_blocks;
};

/// The best rake size by total time (kernel + copies; the smallest R on ties).
struct StreamclusterBest {
    int measured = 0;
    int simulated = 0;     ///< default keys, uncalibrated
    int calibrated = 0;    ///< default keys x f
    int documented = 0;    ///< documented keys, uncalibrated (0 when not simulated)
};

/// One-point calibration as for SpMV: f = measured span / simulated span (default keys) at the
/// reference point, the rake size with the median measured block span (the lower median of an
/// even count: R = 16 of 1..512). f scales the kernel's simulated execution, not the launch
/// overhead or the copies.
struct StreamclusterComparison {
    std::vector<StreamclusterPoint> points;   ///< runs.csv order (R ascending in the committed data)
    std::string documented_keys;              ///< empty: not simulated
    int reference_rake = 0;
    double factor = 0;
    double median_abs_kernel_error_percent = 0;
    double max_abs_kernel_error_percent = 0;
    double median_abs_d2h_pinned_error_percent = 0;
    double max_abs_d2h_pinned_error_percent = 0;
    double median_abs_d2h_pageable_error_percent = 0;
    double max_abs_d2h_pageable_error_percent = 0;
    double median_abs_total_pinned_error_percent = 0;
    double median_abs_total_pageable_error_percent = 0;
    double median_abs_documented_kernel_error_percent = 0;
    double max_abs_documented_kernel_error_percent = 0;
    StreamclusterBest best_pinned;
    StreamclusterBest best_pageable;
    int timelines = 0;
    int total_misplaced = 0;
    bool grids_match = true;                  ///< every simulated block count equals the runner's (a hard check)
};

/// Reads `DIR/runs.csv` (the runner's `streamcluster` experiment) and simulates each row on `gpu`
/// with `policy` and the `shared` execution model: its `workload_spec` column when there is one,
/// else `streamcluster:points=,dims=,centers=,rake=,threads=,regs=` from the row's columns and the
/// metadata line `# kernel.pgain.numRegs=`; each with copy=none, pinned and pageable, with the
/// generator's default keys and, when `documented_keys` is not empty, again with those keys
/// appended. Compares each `DIR/timeline_r<R>.csv` that exists. InputError naming the file (and
/// line, column) for malformed data.
StreamclusterComparison validate_streamcluster(const std::string& dir, const hw::GpuSpec& gpu, const std::string& policy,
                                               const std::string& documented_keys = kStreamclusterDocumentedKeys,
                                               bool keep_blocks = false);

}  // namespace gpusched::validation
