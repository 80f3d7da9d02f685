// The time unit a person reads on a chart axis: ns, us, ms or s, chosen by the largest value shown.
#include "gpusched/charts/time_unit.h"

#include <cmath>

namespace gpusched::charts {

TimeUnit readable_time_unit(double largest_ns) {
    if (!std::isfinite(largest_ns)) return {"ns", 1};
    if (largest_ns >= 1e9) return {"s", 1e9};
    if (largest_ns >= 1e6) return {"ms", 1e6};
    if (largest_ns >= 1e3) return {"us", 1e3};
    return {"ns", 1};
}

}  // namespace gpusched::charts
