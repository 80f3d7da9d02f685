// Series-kernel table: the compute-bound paper's experiment (blocks x threads) measured vs simulated.
#pragma once

#include <string>
#include <vector>

#include "gpusched/hw/gpu_spec.h"

namespace gpusched::validation {

struct SeriesPoint {
    int blocks = 0;
    int threads = 0;
    int terms = 0;
    double measured_us = 0;
    double simulated_us = 0;
    double calibrated_us = 0;
    double error_percent = 0;    ///< 100 (calibrated - measured) / measured
};

/// One-point calibration as for the curves: f = measured / simulated at the reference
/// point, the one with the median measured time (ties: fewer blocks, then fewer threads).
struct SeriesComparison {
    std::vector<SeriesPoint> points;   ///< sorted by threads, then blocks
    int reference_blocks = 0;
    int reference_threads = 0;
    double factor = 0;
    double median_abs_error_percent = 0;
    double max_abs_error_percent = 0;
};

/// Reads the runner's `binomial.csv` (columns blocks, threads, terms, median_ms) and
/// simulates `binomial-series:blocks=B,threads=T,terms=K` on `gpu` with `policy` and the
/// `shared` execution model. InputError naming the file and line for malformed data.
SeriesComparison validate_series(const std::string& csv_path, const hw::GpuSpec& gpu, const std::string& policy);

}  // namespace gpusched::validation
