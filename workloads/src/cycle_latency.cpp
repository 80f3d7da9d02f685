// Conversion of cycle-count latency bounds to time at a GPU's clock.
#include "gpusched/workloads/cycle_latency.h"

#include <algorithm>
#include <cmath>

#include "gpusched/support/checked_time.h"

namespace gpusched::workloads {

Time cycles_to_time(double cycles, double clock_mhz) {
    if (!(cycles > 0) || !(clock_mhz > 0)) return 0;
    // 1 cycle = 10^6 / clock_mhz ps. A bound past the range stays past it (never saturated
    // below): a block that must wait for it is reported by the engine.
    return time_from_ps(std::ceil(cycles * 1e6 / clock_mhz)).value_or(kTimeLimit);
}

std::optional<WarpWork> warp_work_at_clock(const BlockWork& work, std::uint64_t block, double clock_mhz) {
    return warp_work_at_clock(work, dynamic_cast<const CycleLatencyWork*>(&work), block, clock_mhz);
}

std::optional<WarpWork> warp_work_at_clock(const BlockWork& work, const CycleLatencyWork* cycles, std::uint64_t block,
                                           double clock_mhz) {
    std::optional<WarpWork> out = work.warp_work(block);
    if (out && cycles != nullptr)
        out->latency_bound =
            std::max(out->latency_bound, cycles_to_time(cycles->latency_bound_cycles(block), clock_mhz));
    return out;
}

}  // namespace gpusched::workloads
