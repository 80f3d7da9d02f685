// "Nice" axis ticks: linear 1-2-5 steps and logarithmic decades.
#pragma once

#include <vector>

namespace gpusched::charts {

/// An axis: its drawn range [lo, hi] and the tick values inside it, ascending.
struct AxisTicks {
    double lo = 0;
    double hi = 1;
    double step = 1;               ///< linear: distance between ticks; log: decades between major ticks
    std::vector<double> values;
};

/// Ticks for data in [lo, hi] at a step of 1, 2 or 5 x 10^k: the smallest such step that gives
/// at most `target` intervals; the range is widened outward to whole steps.
///
///     linear_ticks(0, 97)    -> 0, 20, 40, 60, 80, 100
///     linear_ticks(50, 100)  -> 50, 60, 70, 80, 90, 100
///
/// lo == hi is widened to a range around the value (0 -> [0, 1]); lo > hi is swapped.
/// Throws std::invalid_argument for a non-finite bound or target < 1.
AxisTicks linear_ticks(double lo, double hi, int target = 6);

/// Ticks for positive data in [lo, hi] on a log10 axis: the range is widened to whole decades;
/// ticks at 1, 2, 5 x 10^k when it spans at most two decades, at every decade up to eight,
/// and at every m-th decade beyond (at most eight intervals).
/// Throws std::invalid_argument unless 0 < lo, 0 < hi and both are finite.
AxisTicks log_ticks(double lo, double hi);

}  // namespace gpusched::charts
