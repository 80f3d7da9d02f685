// DispatchPolicy: the strategy that decides which pending block goes to which SM (implementations in scheduler/).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/hw/gpu_spec.h"
#include "gpusched/hw/occupancy.h"
#include "gpusched/sim/sm_pool.h"
#include "gpusched/workloads/kernel_launch.h"

namespace gpusched::sim {

/// Read-only view of the SMs for one launch: room is counted in that launch's blocks
/// (or warps, for warp-level dispatchers) and is 0 on SMs outside its mask.
class SmView {
public:
    SmView(const SmPool& pool, const BlockFootprint& footprint, const std::vector<std::uint8_t>& allowed)
        : pool_(pool), footprint_(footprint), allowed_(allowed) {}
    [[nodiscard]] int room(int sm) const {
        return allowed_[static_cast<std::size_t>(sm)] != 0 ? pool_.room(sm, footprint_) : 0;
    }

private:
    const SmPool& pool_;
    const BlockFootprint& footprint_;
    const std::vector<std::uint8_t>& allowed_;
};

/// Everything a policy may know about a launch when its blocks become dispatchable.
struct LaunchContext {
    const hw::GpuSpec* gpu = nullptr;
    const workloads::KernelLaunch* launch = nullptr;
    const hw::OccupancyResult* occupancy = nullptr;
    /// SMs this launch may use, in the GPU's tie-breaking order (spec.dispatch_order()
    /// filtered by the stream's SM mask).
    std::vector<int> sms_in_order;
};

/// A decision: run work unit `block` of the launch on `sm`. For block-level policies the
/// unit is the block; for warp-level ones (`min`) it is one warp of block `block`.
struct Placement {
    std::uint64_t block = 0;
    int sm = 0;
};

/// Per-launch dispatch state, created by DispatchPolicy::start.
///
/// The engine's protocol: after start, `sm_changed(s)` is called for every SM whose free
/// resources change (a block started or ended there, of any launch). In a dispatch pass the
/// engine calls `next()` repeatedly; each returned placement is dispatched immediately
/// (then `sm_changed` for that SM) until `next()` returns nullopt ("nothing fits now") or
/// `finished()` is true. `next()` must only return SMs whose room is at least 1.
class KernelDispatcher {
public:
    virtual ~KernelDispatcher() = default;
    [[nodiscard]] virtual std::optional<Placement> next(const SmView& sms) = 0;
    virtual void sm_changed(int sm, const SmView& sms) = 0;
    [[nodiscard]] virtual bool finished() const = 0;
    /// True for warp-level dispatch (each unit is one warp with BlockFootprint::single_warp()).
    [[nodiscard]] virtual bool warp_level() const { return false; }
};

/// A named dispatch strategy; stateless apart from its configuration.
class DispatchPolicy {
public:
    virtual ~DispatchPolicy() = default;
    [[nodiscard]] virtual std::string name() const = 0;
    /// True if it dispatches whenever some allowed SM has room for the next block
    /// (invariant tests check this for work-conserving policies).
    [[nodiscard]] virtual bool work_conserving() const = 0;
    [[nodiscard]] virtual std::unique_ptr<KernelDispatcher> start(const LaunchContext& context) const = 0;
};

}  // namespace gpusched::sim
