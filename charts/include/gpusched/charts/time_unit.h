// The time unit a person reads on a chart axis: ns, us, ms or s, chosen by the largest value shown.
#pragma once

#include <string>

namespace gpusched::charts {

struct TimeUnit {
    std::string name;        ///< "ns", "us", "ms" or "s"
    double nanoseconds = 1;  ///< one of this unit in ns: 1, 1e3, 1e6 or 1e9
};

/// The largest unit in which `largest_ns` (the largest magnitude on the axis, ns) is at least 1:
/// 999 ns -> ns, 1500 ns -> us, 2.5e7 ns -> ms (25 ms), 3e9 ns -> s. Zero, negative or
/// non-finite: ns.
TimeUnit readable_time_unit(double largest_ns);

}  // namespace gpusched::charts
