// Engine::LaunchState: the engine's per-launch state (private to sim/src, shared by the engine's source files).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "gpusched/sim/engine.h"

namespace gpusched::sim {

struct Engine::LaunchState {
    const workloads::KernelLaunch* launch = nullptr;
    const workloads::BlockWork* work = nullptr;  ///< launch->work, one load nearer
    BlockFootprint block_footprint;
    BlockFootprint unit_footprint;  ///< what one dispatched unit holds (a block, or a warp)
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
