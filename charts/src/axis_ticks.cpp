// Nice axis ticks: 1-2-5 linear steps and log10 decades.
#include "gpusched/charts/axis_ticks.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace gpusched::charts {

namespace {

/// k x step, with values within a billionth of a step of zero written as exactly 0.
double tick_at(double k, double step) {
    const double v = k * step;
    return std::fabs(v) < step * 1e-9 ? 0.0 : v;
}

}  // namespace

AxisTicks linear_ticks(double lo, double hi, int target) {
    if (!std::isfinite(lo) || !std::isfinite(hi)) throw std::invalid_argument("linear_ticks: non-finite range");
    if (target < 1) throw std::invalid_argument("linear_ticks: target must be at least 1");
    if (lo > hi) std::swap(lo, hi);
    if (lo == hi && lo == 0) {
        hi = 1;
    } else if (lo == hi) {
        const double pad = std::fabs(lo) * 0.05;
        lo -= pad;
        hi += pad;
    }
    if (!std::isfinite(hi - lo)) throw std::invalid_argument("linear_ticks: range too large");
    const double rough = (hi - lo) / target;
    double magnitude = std::pow(10.0, std::floor(std::log10(rough)));
    double step = magnitude;
    for (const double m : {1.0, 2.0, 5.0, 10.0}) {
        step = m * magnitude;
        // The 1e-9 slack keeps exact multiples (0..100 in 5 steps of 20) from rounding up a size.
        if (step * (1 + 1e-9) >= rough) break;
    }
    // Whole steps outward; a bound within a billionth of a step of a tick counts as on it.
    const double first = std::floor(lo / step + 1e-9);
    const double last = std::ceil(hi / step - 1e-9);
    AxisTicks axis;
    const double intervals = last - first;
    if (!(step > 0) || !(intervals >= 1 && intervals <= 2.0 * target + 2)) {
        // Beyond double precision (e.g. [1e17, 1e17 + 16]): just the two bounds.
        axis.step = hi - lo;
        axis.lo = lo;
        axis.hi = hi;
        axis.values = {lo, hi};
        return axis;
    }
    axis.step = step;
    axis.lo = tick_at(first, step);
    axis.hi = tick_at(last, step);
    for (int k = 0; k <= static_cast<int>(intervals); ++k) axis.values.push_back(tick_at(first + k, step));
    return axis;
}

AxisTicks log_ticks(double lo, double hi) {
    if (!std::isfinite(lo) || !std::isfinite(hi) || !(lo > 0) || !(hi > 0))
        throw std::invalid_argument("log_ticks: the range must be positive and finite");
    if (lo > hi) std::swap(lo, hi);
    const double first = std::floor(std::log10(lo) + 1e-9);
    double last = std::ceil(std::log10(hi) - 1e-9);
    if (last <= first) last = first + 1;
    AxisTicks axis;
    if (last - first <= 2) {
        axis.step = 1;
        for (double d = first; d < last - 0.5; d += 1)
            for (const double m : {1.0, 2.0, 5.0}) axis.values.push_back(m * std::pow(10.0, d));
    } else {
        axis.step = std::ceil((last - first) / 8);
        last = first + std::ceil((last - first) / axis.step) * axis.step;
        for (double d = first; d < last - 0.5; d += axis.step) axis.values.push_back(std::pow(10.0, d));
    }
    axis.values.push_back(std::pow(10.0, last));
    axis.lo = std::pow(10.0, first);
    axis.hi = std::pow(10.0, last);
    return axis;
}

}  // namespace gpusched::charts
