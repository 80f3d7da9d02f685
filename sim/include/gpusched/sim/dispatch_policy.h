// DispatchPolicy: the strategy that decides which pending block goes to which SM (implementations in scheduler/).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
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
    /// The same SMs and footprint with room 0 outside `allowed` instead (which must outlive
    /// the view): how a dispatcher that wraps another hides SMs from it.
    [[nodiscard]] SmView restricted_to(const std::vector<std::uint8_t>& allowed) const {
        return SmView(pool_, footprint_, allowed);
    }

private:
    const SmPool& pool_;
    const BlockFootprint& footprint_;
    const std::vector<std::uint8_t>& allowed_;
};

/// What a policy keeps over one run, across its launches (the `walk` policy: where the next
/// launch's walk starts). Made by DispatchPolicy::begin_run once per run, held by the engine
/// for the run and handed back in each LaunchContext; the engine never looks inside it, and
/// only the policy that made it reads it (as its own type).
class PolicyRunState {
public:
    virtual ~PolicyRunState() = default;
};

/// Everything a policy may know about a launch when its blocks become dispatchable.
struct LaunchContext {
    const hw::GpuSpec* gpu = nullptr;
    const workloads::KernelLaunch* launch = nullptr;
    const hw::OccupancyResult* occupancy = nullptr;
    /// SMs this launch may use, in the GPU's tie-breaking order (spec.dispatch_order()
    /// filtered by the stream's SM mask).
    std::vector<int> sms_in_order;
    /// The run's state from the policy's begin_run (null when it made none).
    PolicyRunState* run_state = nullptr;
};

/// A decision: run work unit `block` of the launch on `sm`. For block-level policies the
/// unit is the block; for warp-level ones (`min`) it is one warp of block `block`.
struct Placement {
    std::uint64_t block = 0;
    int sm = 0;
};

/// Per-launch dispatch state, created by DispatchPolicy::start.
///
/// The engine's protocol:
///
///     start --> sm_changed(s) for every allowed SM --> [dispatch pass]*
///     dispatch pass: sm_changed(s) for each SM whose room changed since the last pass for
///                    another reason than this dispatcher's own placements (a block ended
///                    there, or another launch placed one), possibly as one sms_changed call,
///                    then next() until it returns nullopt ("nothing fits now" or finished()).
///     refill(s):     instead of a pass, for one freed unit on a GPU otherwise full (below).
///
/// Each placement next() returns is dispatched at once. A dispatcher accounts for its own
/// placements itself: placing one of its units on SM s lowers its room there by exactly one
/// (SmPool guarantees this for every footprint and resident mix), so the engine does not
/// call sm_changed for it. `next()` must only return SMs whose room is at least 1.
/// sm_changed may be called for an SM whose room did not change; it must then be a no-op.
class KernelDispatcher {
public:
    virtual ~KernelDispatcher() = default;
    /// The next unit and its SM, or nullopt when nothing fits now or every unit is placed.
    [[nodiscard]] virtual std::optional<Placement> next(const SmView& sms) = 0;
    /// Up to out.size() placements, exactly those that successive next() calls would return
    /// if the engine dispatched each at once; their count. A count below out.size() means
    /// next() would now return nullopt. Dispatchers override it to save a call per unit.
    [[nodiscard]] virtual std::size_t next_batch(const SmView& sms, std::span<Placement> out) {
        std::size_t n = 0;
        while (n < out.size()) {
            const auto placement = next(sms);
            if (!placement) break;
            out[n++] = *placement;
        }
        return n;
    }
    virtual void sm_changed(int sm, const SmView& sms) = 0;
    /// sm_changed(s) for each s of `changed`, in order (the engine's batch at the start of a
    /// pass when every SM is allowed; one virtual call for many SMs).
    virtual void sms_changed(std::span<const int> changed, const SmView& sms) {
        for (int sm : changed) sm_changed(sm, sms);
    }
    /// Fast path of a saturated GPU, asked instead of a dispatch pass when a block has just
    /// left SM `sm`, which now has room for exactly one unit, no other SM's room changed
    /// since the last pass, and no other event shares this instant. A dispatcher that knows
    /// that no other SM has room, and so would place its next unit on `sm`, returns that
    /// placement, with its state as after sm_changed(sm) and next() (its room on `sm` back
    /// to 0). nullopt (the default) means "use the general path" and must change nothing.
    [[nodiscard]] virtual std::optional<Placement> refill(int sm) {
        (void)sm;
        return std::nullopt;
    }
    /// Asked at a pass that finds the GPU empty of units, when the previous pass of this
    /// dispatcher also found it empty and everything it placed then has ended (before this pass
    /// reports the room changes): a dispatcher whose choices on an empty GPU depend only on the
    /// rooms it is told and on how many units are left accepts, taking `units` units as placed
    /// and completed by identical passes in between (its next unit `units` further on) and
    /// changing nothing else; the engine asks only for fewer units than are left
    /// (sim/engine/wave_replay.h). false (the default) changes nothing.
    [[nodiscard]] virtual bool skip_units(std::uint64_t units) {
        (void)units;
        return false;
    }
    [[nodiscard]] virtual bool finished() const = 0;
    /// True if it is to be told each unit's end (unit_ended); asked once, when it is made
    /// (cluster launches count their blocks per SM).
    [[nodiscard]] virtual bool counts_unit_ends() const { return false; }
    /// A unit of this launch ended on `sm`; called only when counts_unit_ends().
    virtual void unit_ended(int sm) { (void)sm; }
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
    /// True if its dispatchers read and move LaunchContext::run_state, so a launch's
    /// placement depends on the launches before it (the engine then memoises nothing).
    [[nodiscard]] virtual bool keeps_state() const { return false; }
    /// The state its dispatchers share over one run, or nullptr (the default: none).
    [[nodiscard]] virtual std::unique_ptr<PolicyRunState> begin_run() const { return nullptr; }
    /// The dispatcher of one launch, cluster launches included (a policy places their
    /// clusters as it sees fit; the built-in ones as scheduler/src/cluster_placement.h says).
    [[nodiscard]] virtual std::unique_ptr<KernelDispatcher> start(const LaunchContext& context) const = 0;
};

}  // namespace gpusched::sim
