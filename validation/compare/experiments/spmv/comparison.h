// SpMV validation: each measured matrix x format (CSR, ELL, COO, HYB) simulated on the same matrix, times and timelines compared.
#pragma once

#include <string>
#include <vector>

#include "gpusched/hw/gpu_spec.h"
#include "gpusched/validation/measured_timeline.h"

namespace gpusched::validation {

/// One measured SpMV configuration (a matrix, a format: one launch, or HYB's one or two) against its simulation.
struct SpmvPoint {
    std::string matrix;            ///< file stem, e.g. "protein-40k"
    std::string paper_name;        ///< "Protein"
    std::string format;            ///< csr, ell, coo, hyb
    int rows = 0;
    long long nnz = 0;
    int launches = 0;              ///< simulated launches (HYB: 1 or 2)
    std::uint64_t blocks = 0;      ///< simulated blocks, all launches
    std::uint64_t grid_blocks = 0; ///< blocks the runner launched (runs.csv), all launches
    std::string workload_spec;     ///< as run.csv gives it (matrix relative to the data directory)
    double measured_event_us = 0;  ///< CUDA events around the launch(es), median
    double measured_span_us = 0;   ///< first block start to last block end, median of the instrumented runs
    double simulated_us = 0;       ///< simulated makespan from the host's issue (includes kernel_launch_ns)
    double simulated_span_us = 0;  ///< simulated first block start to last block end
    double simulated_busy_us = 0;  ///< sum over its launches of each launch's span (HYB: less the gap between them)
    double calibrated_span_us = 0; ///< simulated span with the launches' spans x the calibration factor
    double calibrated_us = 0;      ///< simulated makespan with the launches' spans x the calibration factor
    double span_error_percent = 0; ///< 100 (calibrated span - measured span) / measured span
    double event_error_percent = 0;///< 100 (calibrated makespan - measured event time) / event time
    /// Timeline comparison where the data directory holds timeline_<matrix>_<format>.csv (the 40k matrices).
    bool has_timeline = false;
    double timeline_span_us = 0;   ///< the timeline's own span (one run, not the median)
    int misplaced = 0;             ///< blocks on another SM than measured
    double start_distance = 0;     ///< KS distance of block start times (each relative to its first start)
    std::vector<MeasuredBlock> measured_blocks;    ///< kept only when asked for
    std::vector<MeasuredBlock> simulated_blocks;
};

/// Per-format error summary after calibration.
struct SpmvFormatSummary {
    std::string format;
    int points = 0;
    double median_abs_span_error_percent = 0;
    double max_abs_span_error_percent = 0;
    double median_event_error_percent = 0;   ///< signed median of the event-time errors
};

/// One-point calibration as for the curves: f = measured span / simulated span at the reference
/// point, the one with the median measured span (ties: matrix, then format, by name). f scales
/// the simulated execution of each launch (its span), not the launch overheads outside them:
/// calibrated = simulated + (f - 1) x the sum of the launch spans, for spans and makespans alike.
struct SpmvComparison {
    std::vector<SpmvPoint> points;       ///< runs.csv order: matrix, size, format
    std::string reference_matrix;
    std::string reference_format;
    double factor = 0;
    double median_abs_span_error_percent = 0;
    double max_abs_span_error_percent = 0;
    double median_abs_event_error_percent = 0;
    double max_abs_event_error_percent = 0;
    std::vector<SpmvFormatSummary> formats;  ///< csr, ell, coo, hyb
    int timelines = 0;
    int total_misplaced = 0;
    bool grids_match = true;             ///< every simulated block count equals the runner's (a hard check)
};

/// Reads `DIR/runs.csv` (the runner's `spmv` experiment; rows with launch = "all") and simulates
/// each `workload_spec` (its matrix read from DIR) on `gpu` with `policy` and the `shared`
/// execution model; compares each `DIR/timeline_<matrix>_<format>.csv` that exists.
/// InputError naming the file and line for malformed data.
SpmvComparison validate_spmv(const std::string& dir, const hw::GpuSpec& gpu, const std::string& policy,
                             bool keep_blocks = false);

}  // namespace gpusched::validation
