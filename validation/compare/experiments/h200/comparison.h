// The H200's measured curves and series against the h200 preset, and the cross-GPU ratios H200 / H100 measured against predicted.
#pragma once

#include <string>
#include <vector>

#include "experiments/curves/comparison.h"
#include "experiments/series/comparison.h"

namespace gpusched::validation {

/// One measured experiment (a curve of one kernel, issue and block size, or the series) on both
/// GPUs: per common point the measured ratio H200 / H100 and the predicted one, h200 / h100 preset
/// (uncalibrated simulations of the same specs).
struct CrossGpuRatio {
    std::string experiment;        ///< "apsp-minplus host-calls 8", ..., "binomial-series"
    int points = 0;                ///< points measured on both GPUs
    double measured_median = 0;    ///< median of the measured ratios
    double predicted_median = 0;   ///< median of the predicted ratios
    double median_abs_error_percent = 0;  ///< median |predicted / measured - 1|, %
    double max_abs_error_percent = 0;
};

/// What the h200 section found on an H200 data directory: its own comparisons and the cross-GPU ratios.
struct CrossGpuComparison {
    std::vector<CurveComparison> curves;  ///< validate_curve_dir on the h200 preset
    SeriesComparison series;              ///< validate_series on the h200 preset (generator defaults)
    std::string h100_dir;                 ///< the H100 data beside it ("" = none: no ratios)
    std::vector<CrossGpuRatio> ratios;
};

/// Compares `data_dir` (measured on an H200: `curves/`) with the h200 preset whatever GPU the settings name,
/// and, where `data_dir/../h100` holds the same experiments, the H200 / H100 ratios. InputError for
/// malformed data.
CrossGpuComparison validate_cross_gpu(const std::string& data_dir, const std::string& policy);

/// Whether `data_dir` was measured on an H200: the `# device_name=NVIDIA H200` line of
/// curves/apsp_minplus_queued.csv.
bool measured_on_h200(const std::string& data_dir);

}  // namespace gpusched::validation
