// LaunchState: what the engine keeps per kernel launch (footprints, SM mask, its dispatcher, counts).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "gpusched/sim/dispatch_policy.h"
#include "gpusched/sim/sm_pool.h"
#include "gpusched/workloads/application.h"
#include "gpusched/workloads/kernel_launch.h"

namespace gpusched::sim {

/// One launch's state. Its footprints' addresses are what SmPool compares (sole-footprint
/// paths), so a LaunchState never moves once made (the Dispatcher keeps it behind a pointer).
///
///     waiting --ready (Dispatcher::activate: `dispatcher` made)--> active
///     active --dispatcher finished()--> fully dispatched --completed == dispatched--> done
///     waiting --memoised repeat--> repeated (no dispatcher; never simulated block by block)
struct LaunchState {
    const workloads::KernelLaunch* launch = nullptr;
    const workloads::BlockWork* work = nullptr;  ///< launch->work, one load nearer
    BlockFootprint block_footprint;
    BlockFootprint unit_footprint;      ///< what one dispatched unit holds (a block, or a warp)
    std::vector<std::uint8_t> allowed;  ///< SM mask (1 = allowed)
    std::vector<int> sms_in_order;
    workloads::StreamPriority priority = workloads::StreamPriority::normal;
    std::unique_ptr<KernelDispatcher> dispatcher;
    std::uint64_t dispatched = 0;
    std::uint64_t completed = 0;
    bool repeated = false;  ///< memoised: not simulated block by block
    Time first_start = 0;
    bool started = false;
};

}  // namespace gpusched::sim
