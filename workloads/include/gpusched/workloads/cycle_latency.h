// Latency bounds known in SM clock cycles: the generators see no GPU, so the clock converts them later.
#pragma once

#include <cstdint>
#include <optional>

#include "gpusched/support/time.h"
#include "gpusched/workloads/kernel_launch.h"

namespace gpusched::workloads {

/// Implemented (besides BlockWork) by work models whose per-warp latency bound L is a number of
/// SM clock cycles (a dependency chain, a memory round trip): a spec is parsed before any GPU
/// is chosen, so their warp_work() leaves latency_bound at 0 and reports the cycles here.
class CycleLatencyWork {
public:
    virtual ~CycleLatencyWork() = default;
    /// The latency bound of each active warp of `block`, in SM clock cycles (0: none).
    [[nodiscard]] virtual double latency_bound_cycles(std::uint64_t block) const = 0;
};

/// `cycles` SM clock cycles at `clock_mhz`, in picoseconds, rounded up (cycles x 10^6 / clock_mhz);
/// kTimeLimit (past the range of simulated time) when that reaches 2^63 ps.
Time cycles_to_time(double cycles, double clock_mhz);

/// work.warp_work(block) with latency_bound filled in from latency_bound_cycles() at `clock_mhz`
/// when `work` is a CycleLatencyWork (the larger of the two bounds when both are set);
/// otherwise warp_work(block) unchanged. This is what the `shared` execution model should call.
std::optional<WarpWork> warp_work_at_clock(const BlockWork& work, std::uint64_t block, double clock_mhz);
/// The same, with `cycles` = dynamic_cast<const CycleLatencyWork*>(&work) found once by the caller (a
/// cast to a second base costs more than many a block's work: the `shared` model keeps one per launch).
std::optional<WarpWork> warp_work_at_clock(const BlockWork& work, const CycleLatencyWork* cycles, std::uint64_t block,
                                           double clock_mhz);

}  // namespace gpusched::workloads
