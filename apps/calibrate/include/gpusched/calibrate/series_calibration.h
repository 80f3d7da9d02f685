// Calibrating binomial-series on a measured table, with cross-validated (held-out) errors.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpusched/calibrate/cross_validation.h"
#include "gpusched/calibrate/series_fit.h"

namespace gpusched::calibrate {

/// One split's fit and its errors on the held-out points (full simulations at the fitted keys).
struct SeriesSplitResult {
    Split split;
    SeriesFit fit;
    std::vector<double> test_errors_percent;  ///< in split.test order
    ErrorStats held_out;
};

/// A group of splits (one cross-validation scheme) and all its held-out errors pooled.
struct SeriesScheme {
    std::string name;
    std::vector<SeriesSplitResult> splits;
    ErrorStats pooled;
};

struct SeriesCalibration {
    SeriesFit fit;                              ///< on every point
    std::vector<double> simulated_us;           ///< every point at fit.params
    std::vector<double> errors_percent;         ///< in-sample
    ErrorStats in_sample;
    std::vector<SeriesScheme> schemes;
};

/// Fits on all points, then cross-validates with two schemes: leave one block size (threads)
/// out, and extrapolation from small grids (blocks <= extrapolation_limit) to larger ones.
/// A scheme with fewer than two groups (or an empty side) is left out.
SeriesCalibration calibrate_series(SeriesSimulator& sim, std::uint64_t extrapolation_limit,
                                   const SeriesFitOptions& options = {});

}  // namespace gpusched::calibrate
