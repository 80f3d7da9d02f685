// LaunchState: what the engine keeps per kernel launch (its shape, SM mask, its dispatcher, counts).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "gpusched/sim/dispatch_policy.h"
#include "gpusched/sim/sm_pool.h"
#include "gpusched/workloads/application.h"
#include "gpusched/workloads/kernel_launch.h"

namespace gpusched::sim {

/// What launches with one occupancy request share: their footprints, made and prepared once.
/// SmPool compares footprint addresses (sole-footprint paths), so a shape never moves once made
/// (the Dispatcher keeps shapes in a deque), and blocks of launches of one shape count as blocks
/// of one footprint (the same resources, so the same room by every rule).
struct LaunchShape {
    BlockFootprint block_footprint;
    BlockFootprint warp_footprint;  ///< block_footprint.single_warp(), for warp-level dispatch
    std::size_t first_launch = 0;   ///< the first launch of this shape (its occupancy is the shape's)
};

/// The SMs a stream's launches may use, shared by every launch of the stream (or, for streams
/// without a mask, by all of them).
struct StreamSms {
    std::vector<std::uint8_t> allowed;  ///< SM mask (1 = allowed)
    std::vector<int> sms_in_order;      ///< the allowed SMs in the GPU's dispatch order
};

/// One launch's state; a few words, whatever the GPU's size (a million launches fit in memory):
///
///     waiting --ready (Dispatcher::activate: `dispatcher` made)--> active
///     active --dispatcher finished()--> fully dispatched --completed == dispatched--> done
///     done (and out of the active list) --> its dispatcher is freed
///     waiting --memoised repeat--> repeated (no dispatcher; never simulated block by block)
struct LaunchState {
    const workloads::KernelLaunch* launch = nullptr;
    const workloads::BlockWork* work = nullptr;  ///< launch->work, one load nearer
    const LaunchShape* shape = nullptr;
    /// What one dispatched unit holds: the shape's block footprint, or its warp footprint for
    /// warp-level dispatch (set by activate).
    const BlockFootprint* unit_footprint = nullptr;
    const StreamSms* sms = nullptr;
    std::unique_ptr<KernelDispatcher> dispatcher;
    std::uint64_t dispatched = 0;
    std::uint64_t completed = 0;
    Time first_start = 0;
    int priority = 0;  ///< the stream's priority in CUDA's numbers (lower = higher), `high` resolved
    bool repeated = false;  ///< memoised: not simulated block by block
    bool started = false;
    bool done = false;      ///< every unit dispatched and completed
    bool counts_ends = false;  ///< the dispatcher is told each unit's end (KernelDispatcher::unit_ended)

    [[nodiscard]] const BlockFootprint& block_footprint() const { return shape->block_footprint; }
    [[nodiscard]] const std::vector<std::uint8_t>& allowed() const { return sms->allowed; }
    [[nodiscard]] const std::vector<int>& sms_in_order() const { return sms->sms_in_order; }
};

}  // namespace gpusched::sim
