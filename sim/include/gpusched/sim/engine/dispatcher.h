// Dispatcher: the ready launches and the dispatch passes that hand their blocks to SMs.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "gpusched/hw/gpu_spec.h"
#include "gpusched/sim/dispatch_policy.h"
#include "gpusched/sim/engine/event_core.h"
#include "gpusched/sim/engine/launch_state.h"
#include "gpusched/sim/engine/launch_table.h"
#include "gpusched/sim/occupancy_table.h"
#include "gpusched/sim/sm_pool.h"

namespace gpusched::sim {

/// Decides which units of the ready launches go where; starting a unit (resources,
/// start time, completion) is the caller's `dispatch` callback, which must start every
/// placement it is given (the counts are kept here).
///
/// Active launches: ready and not fully dispatched, in ready order (activate() appends one;
/// a pass removes those whose dispatcher finished()).
///
/// A pass (run_pass, once per simulated instant after all completions and arrivals of that
/// instant; see EventCore):
///   - first the room changes batched since the last pass are reported: each changed SM to
///     every active launch that may use it, once (one sms_changed call for a launch allowed
///     everywhere);
///   - one active launch and no dispatch interval (the common case): its dispatcher's
///     next_batch until it returns less than a full batch;
///   - otherwise the general pass: launches are offered level by level, the greatest stream
///     priority first (CUDA's numbers, every level of the GPU's streams.priority_range), in ready
///     order within a level. The *leftover* rule holds within a level and the *backfill stop*
///     across levels, one rule: a launch dispatches only once every launch offered before it
///     (ahead of it in its level, or of a higher level) is fully dispatched, unless their SM
///     masks are disjoint (a spatial partition is its own queue). So a higher-priority launch
///     whose blocks do not fit yet stops every lower-priority launch that may use its SMs: freed
///     room waits for it instead of taking lower-priority blocks (docs/scheduling.md "Stream
///     priorities and concurrent kernels"). With block_dispatch_interval_ns = i set, at most
///     one unit per i (the pass stops and requests itself again at the dispatcher's next free
///     time).
///
/// A placement changes the room of the other active launches at once (notify_other_launches);
/// a completion's room change waits for the next pass (mark_room_changed).
///
/// Saturated-GPU fast path (try_refill): when one launch is active, a block's slot is freed at
/// an instant that nothing else shares and no other room change is pending, the launch's
/// dispatcher is asked refill(sm) instead of a pass; one that knows the freed SM is the only
/// one with room returns the placement the pass would have made (identical schedules:
/// tests/scheduler/refill_fast_path_test.cpp).
///
/// The launches' states live in the LaunchTable (built and checked before the Dispatcher); the
/// Dispatcher makes a launch's KernelDispatcher at activation (DispatchPolicy::start) and frees
/// it when the launch is done, and holds the policy's per-run state (DispatchPolicy::begin_run)
/// for the run without looking inside it.
class Dispatcher final {
public:
    /// Dispatches the launches of `launches` (which must outlive it) under `policy`; the
    /// policy's run state is made here (one run per Dispatcher).
    Dispatcher(const hw::GpuSpec& gpu, LaunchTable& launches, const DispatchPolicy& policy);
    ~Dispatcher();
    Dispatcher(const Dispatcher&) = delete;
    Dispatcher& operator=(const Dispatcher&) = delete;

    [[nodiscard]] std::size_t active_count() const { return active_.size(); }
    /// The first active launch (active_count() > 0).
    [[nodiscard]] std::size_t first_active() const { return active_.front(); }
    /// A dispatch interval paces the units (block_dispatch_interval_ns).
    [[nodiscard]] bool paced() const { return interval_ != 0; }
    /// Units handed out so far (repeated launches' units included).
    [[nodiscard]] std::uint64_t units_dispatched() const { return units_dispatched_; }
    void count_repeated(std::uint64_t units) { units_dispatched_ += units; }
    /// With a dispatch interval: when the next unit may go.
    [[nodiscard]] Time free_at() const { return free_at_; }

    /// Launch `index` is ready: its dispatcher is made and told every allowed SM's room.
    void activate(std::size_t index, const SmPool& pool);
    /// Every unit of launch `index` completed: it is done, and its dispatcher is freed (now, or
    /// when a pass drops it from the active launches).
    void launch_done(std::size_t index);
    /// A pass at `when`, or when the dispatch interval lets the next unit go if later.
    void request_pass(EventCore& core, Time when) const { core.request_pass(std::max(when, free_at_)); }
    /// A completion changed `sm`'s room: reported at the next pass.
    void mark_room_changed(int sm) {
        std::uint8_t& flag = room_changed_[static_cast<std::size_t>(sm)];
        if (flag != 0) return;
        flag = 1;
        room_changed_list_.push_back(sm);
    }
    /// A placement by launch `placed_by` on `sm`: the other active launches allowed there are told.
    void notify_other_launches(int sm, std::size_t placed_by, const SmPool& pool);

    /// The pass (EventCore::begin_pass has run). `dispatch(launch, index, placements)`.
    template <class Dispatch>
    void run_pass(EventCore& core, const SmPool& pool, Dispatch&& dispatch) {
        flush_room_changes(pool);
        if (active_.size() == 1 && interval_ == 0) {  // the common case: no leftover or priority decisions
            const std::size_t index = active_.front();
            LaunchState& launch = launches_[index];
            const SmView view = view_of(launch, pool);
            std::size_t n = 0;
            do {
                n = launch.dispatcher->next_batch(view, batch_);
                dispatch_counted(launch, index, {batch_.data(), n}, dispatch);
            } while (n == batch_.size());
            if (launch.dispatcher->finished()) active_.clear();
            return;
        }
        run_general_pass(core, pool, dispatch);
    }

    /// The fast path for `sm` just freed at core.now(); `start(launch, index, placement)`
    /// starts the unit. False (nothing changed) when it does not apply.
    template <class StartOne>
    [[gnu::always_inline]] bool try_refill(int sm, const EventCore& core, const SmPool& pool, StartOne&& start) {
        if (active_.size() != 1 || core.pass_pending() || interval_ != 0 || !room_changed_list_.empty()) return false;
        if (core.event_at_now()) return false;  // the pass must wait for this instant's events
        const std::size_t index = active_.front();
        LaunchState& launch = launches_[index];
        if (view_of(launch, pool).room(sm) != 1) return false;
        const auto placement = launch.dispatcher->refill(sm);
        if (!placement) return false;
        start(launch, index, *placement);
        ++launch.dispatched;
        ++units_dispatched_;
        if (launch.dispatcher->finished()) active_.clear();
        return true;
    }

private:
    [[nodiscard]] static SmView view_of(const LaunchState& launch, const SmPool& pool) {
        return SmView(pool, *launch.unit_footprint, launch.allowed());
    }
    void flush_room_changes(const SmPool& pool);
    template <class Dispatch>
    void dispatch_counted(LaunchState& launch, std::size_t index, std::span<const Placement> placements,
                          Dispatch& dispatch) {
        dispatch(launch, index, placements);
        launch.dispatched += placements.size();
        units_dispatched_ += placements.size();
    }
    template <class Dispatch>
    [[gnu::noinline]] void run_general_pass(EventCore& core, const SmPool& pool, Dispatch& dispatch);


    const hw::GpuSpec& gpu_;
    const DispatchPolicy& policy_;
    const OccupancyTable& occupancy_;
    std::span<LaunchState> launches_;  ///< the LaunchTable's states (it never resizes)
    std::unique_ptr<PolicyRunState> run_state_;  ///< the policy's, for this run (may be null)
    std::vector<std::size_t> active_;  ///< ready, not fully dispatched launches, in ready order
    Time interval_;                    ///< block_dispatch_interval_ns, 0 = none
    Time free_at_ = 0;
    std::array<Placement, 64> batch_;  ///< placements of one next_batch call
    std::vector<bool> claimed_;
    std::vector<int> levels_;  ///< the active launches' priorities, one pass's order
    std::vector<std::uint8_t> room_changed_;  ///< by SM: in room_changed_list_
    std::vector<int> room_changed_list_;
    std::uint64_t units_dispatched_ = 0;
};

template <class Dispatch>
void Dispatcher::run_general_pass(EventCore& core, const SmPool& pool, Dispatch& dispatch) {
    const Time now = core.now();
    // SMs claimed by launches offered earlier and not fully dispatched: ahead in the same
    // priority level (leftover rule) or of a higher level (backfill stop).
    claimed_.resize(static_cast<std::size_t>(gpu_.sm_count));
    if (active_.size() > 1) std::fill(claimed_.begin(), claimed_.end(), false);
    levels_.clear();
    for (std::size_t index : active_) levels_.push_back(launches_[index].priority);
    std::sort(levels_.begin(), levels_.end());  // CUDA's numbers: the greatest priority first
    levels_.erase(std::unique(levels_.begin(), levels_.end()), levels_.end());
    for (int level : levels_) {
        for (std::size_t index : active_) {
            LaunchState& launch = launches_[index];
            if (launch.priority != level) continue;
            bool blocked = false;
            if (active_.size() > 1)
                for (int sm : launch.sms_in_order()) blocked = blocked || claimed_[static_cast<std::size_t>(sm)];
            while (!blocked && !launch.dispatcher->finished()) {
                if (interval_ > 0 && now < free_at_) {
                    request_pass(core, free_at_);
                    return;
                }
                const auto placement = launch.dispatcher->next(view_of(launch, pool));
                if (!placement) break;
                dispatch_counted(launch, index, {&*placement, 1}, dispatch);
                if (interval_ > 0) free_at_ = now + interval_;
            }
            if (active_.size() > 1 && !launch.dispatcher->finished())
                for (int sm : launch.sms_in_order()) claimed_[static_cast<std::size_t>(sm)] = true;
        }
    }
    std::erase_if(active_, [&](std::size_t index) {
        LaunchState& launch = launches_[index];
        if (!launch.dispatcher->finished()) return false;
        if (launch.done) launch.dispatcher.reset();  // completed before this pass dropped it
        return true;
    });
}

}  // namespace gpusched::sim
