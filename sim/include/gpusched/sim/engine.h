// Engine: the discrete-event simulation of one application on one GPU under one dispatch policy.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "gpusched/hw/gpu_spec.h"
#include "gpusched/sim/dispatch_policy.h"
#include "gpusched/sim/event_queue.h"
#include "gpusched/sim/execution_model.h"
#include "gpusched/sim/observer.h"
#include "gpusched/sim/sm_pool.h"
#include "gpusched/workloads/application.h"
#include "gpusched/workloads/operation_graph.h"

namespace gpusched::sim {

struct SimResult {
    Time makespan = 0;           ///< time the last block completed
    std::uint64_t units = 0;     ///< blocks (or warps, for warp-level policies) run
};

/// Runs an application to completion.
///
/// Life of an operation (workloads::OperationGraph: stream order, event record/wait, `after`):
///
///     waiting --(every operation it depends on has finished)--> started --> finished,
///     and each dependant whose last dependency this was starts at that instant.
///
///     kernel: started --(+ kernel_launch_ns)--> ready (in the execution-engine queue)
///             --(dispatcher hands out every block)--> fully dispatched --(last block ends)--> finished
///     copy:   started --(its copy engine is free)--> transferring --(latency + bytes /
///             bandwidth)--> finished. With copy_engines >= 2 host-to-device and
///             device-to-host copies have an engine each (the link is per direction), with 1
///             they share one; copies overlap kernels in both cases.
///     delay:  started --(its duration)--> finished;  record, wait: finished at once.
///
/// Host issue (Application::host_issue = calls): one host thread issues operation i of the
/// issue order at i x host_launch_interval_ns; an operation whose dependencies are done
/// earlier waits for that instant before it starts (queued: every operation is issued at 0).
///
/// Life of a block: pending --(policy picks an SM with room; resources reserved)-->
/// dispatched --(+ block_dispatch_latency_ns, then the SM's launch pipeline)--> running --(its duration: `fixed`; or as
/// long as its work takes next to its neighbours: `shared`)--> complete (resources released).
///
/// Launch pipeline (when the spec has sm_block_launch_ns / sm_warp_launch_ns): each SM
/// launches one block at a time; a block of w warps dispatched at t starts at
///
///     start = max(t + block_dispatch_latency_ns, previous start on that SM + a + b' w')
///
/// with a = sm_block_launch_ns, b = sm_warp_launch_ns and w' the previous block's warps. So
/// the blocks of one SM in a first wave start a + b w apart, and a lone refill starts
/// block_dispatch_latency_ns after its slot was freed (the H100 measures 182 ns for 1..32 warps).
///
/// Completion channel (block_completion_interval_ns = c > 0): a block ends at its end time
/// (observers see it then), but its SM learns the slot is free only when the completion has
/// passed a serial channel that takes one completion per c: released at
/// max(end, previous release + c). The first wave is not slowed; sustained refills of short
/// blocks are limited to one per c GPU-wide. Completions that find the channel busy queue;
/// the channel takes them first come, first served, or with the GPU's
/// topology.completion_sweep in its visit order (SweptCompletionQueue), whose position
/// restarts when a kernel becomes ready on an idle GPU (nothing resident, nothing queued).
///
/// Front-end rules: among ready launches, high-priority streams are offered every dispatch
/// first. Within a priority level the *leftover* rule holds: a launch dispatches only once
/// every launch ahead of it is fully dispatched, unless their SM masks are disjoint (a
/// spatial partition is its own queue). A dispatch pass runs once per simulated instant,
/// after all completions and arrivals of that instant; with `block_dispatch_interval_ns`
/// set, it dispatches at most one block per interval.
///
/// Saturated-GPU fast path: when one launch is active, a block's slot is freed at an
/// instant that nothing else shares and no other room change is pending, the engine asks
/// the dispatcher's refill(sm) instead of running a pass; a dispatcher that knows the freed
/// SM is the only one with room returns the placement the pass would have made (identical
/// schedules: tests/scheduler/refill_fast_path_test.cpp).
///
/// Same-instant completions: blocks that end at one instant (no completion channel) are
/// ended and released together, then one pass runs; with fixed durations, no observers and
/// one active launch, the blocks of one dispatch batch that end together share one completion
/// event (a completion group). Both give exactly the schedule of one event per block.
///
/// Memoisation: when a launch becomes ready on an idle GPU (no resident block, nothing else
/// queued, every other stream drained) and is identical to an earlier launch that started the
/// same way and ran undisturbed, its run is that launch's run shifted in time, so it is not
/// simulated again: observers get on_launch_repeated with its per-SM totals. This happens
/// only when no observer needs every block (timeline and trace writers do); results are
/// identical to full simulation (tests/sim/memoisation_test.cpp). Never with a policy that
/// keeps distributor state between launches (DispatchPolicy::keeps_state).
///
/// The engine formats nothing: observers receive events. Memory is O(SMs x slots +
/// launches), independent of the number of blocks.
class SweptCompletionQueue;

class Engine final : private TimeTeller, private CompletionSink {
public:
    /// Checks every launch against the GPU (InputError naming the launch when one cannot
    /// launch or a stream's SM mask is invalid) and creates the execution model by name.
    Engine(const hw::GpuSpec& gpu, const workloads::Application& app, const DispatchPolicy& policy,
           const std::string& execution = "fixed");
    /// The engine keeps references to the application: a temporary one would dangle.
    Engine(const hw::GpuSpec& gpu, const workloads::Application&& app, const DispatchPolicy& policy,
           const std::string& execution = "fixed") = delete;
    ~Engine() override;

    void add_observer(SimObserver& observer) { observers_.push_back(&observer); }
    /// Memoisation of identical launches on an idle GPU (on by default).
    void set_memoise(bool on) { memoise_ = on; }
    /// Occupancy of each launch (valid after construction).
    [[nodiscard]] const std::vector<hw::OccupancyResult>& occupancy() const { return occupancy_; }
    SimResult run();

private:
    struct LaunchState;
    /// A resident block (the hot loop touches one per event).
    struct Resident {
        static constexpr std::uint32_t kFree = 0xffffffffU;
        std::uint64_t block = 0;
        Time dispatch = 0;
        Time start = 0;
        Time end = 0;       ///< the end currently scheduled; completion events for other times are stale
        std::uint32_t launch = kFree;  ///< kFree: the slot holds no block
    };

    [[nodiscard]] Time now() const override { return now_; }
    void set_end(int sm, int slot, Time end) override;
    /// Starts every operation in `ready_ops_` (and those that finish at once, and so on).
    void start_ready_ops();
    void start_op(std::size_t op);
    void finish_op(std::size_t op);
    void start_copy(std::size_t op);
    /// Checks the GPU spec can carry the application's copies; sets the copy engines up.
    void prepare_copies();
    void on_operation_event(std::size_t op);
    [[nodiscard]] bool idle_for_memo() const;
    void repeat_memo(std::size_t launch);
    void on_kernel_ready(std::size_t launch);
    /// The block in resident_[at] ended at now_; true when its slot is to be released at once
    /// (no completion channel, or the channel is free).
    bool on_block_end(std::size_t at);
    /// At a channel-take event: the queued completion the sweep takes now (its resident index);
    /// queues the next take while completions wait.
    std::size_t take_swept_completion();
    void report_block_completed(const Resident& r, int sm, int slot);
    /// The last block of launch `index` ended at now_.
    void on_launch_completed(std::size_t index);
    /// The saturated-GPU fast path: one launch active, `sm` the only SM with room, for one
    /// unit, nothing else at this instant; asks the dispatcher's refill() instead of a pass.
    bool try_refill(int sm);
    void run_dispatch_pass();
    /// The pass with leftover and priority rules or a dispatch interval (engine_paths.cpp).
    void run_general_pass();
    void request_dispatch(Time when);
    /// What starting a unit reads of the engine (read once per batch of placements).
    struct UnitStart;
    [[nodiscard]] UnitStart unit_start() const;
    /// Reserves a placement's resources and starts its block (schedules its end, pushing its
    /// completion event when `push`); returns its resident index.
    std::size_t start_unit(LaunchState& launch, std::size_t index, const Placement& placement, const UnitStart& how,
                           bool push);
    /// start_unit for each placement (fixed durations, nothing else to do per unit, no
    /// completion channel: placements that end together share a completion group).
    void dispatch_units(LaunchState& launch, std::size_t index, std::span<const Placement> placements);
    /// An empty completion group's id.
    std::uint32_t open_group();
    /// Ends and releases the members of a completion group whose event came at `time`, in
    /// order, then frees the group.
    void end_group(std::uint32_t group, Time time);
    /// What a dispatch does beyond the fixed-duration, single-launch, unobserved case.
    void after_dispatch(LaunchState& launch, std::size_t index, const Placement& placement, int slot);
    [[noreturn]] void throw_no_room(int sm) const;
    /// Start of a block dispatched now on `sm` through its launch pipeline (which it advances).
    Time pipeline_start(const LaunchState& launch, int sm);
    /// Room changes from completions are batched: each changed SM is reported to every
    /// active dispatcher once, at the start of the next dispatch pass.
    void mark_room_changed(int sm);
    void flush_room_changes();
    /// A placement changes the room of the other active launches at once.
    void notify_other_launches(int sm, std::size_t placed_by);
    [[nodiscard]] SmView view_of(const LaunchState& launch) const;

    const hw::GpuSpec& gpu_;
    const workloads::Application& app_;
    const DispatchPolicy& policy_;
    std::unique_ptr<ExecutionModel> execution_;
    bool fixed_durations_;
    std::vector<SimObserver*> observers_;
    std::vector<hw::OccupancyResult> occupancy_;
    std::vector<std::unique_ptr<LaunchState>> launches_;
    std::vector<std::size_t> active_;  ///< ready, not fully dispatched launches, in ready order
    workloads::OperationGraph graph_;
    std::vector<std::uint32_t> unfinished_deps_;  ///< per operation
    std::vector<std::uint8_t> kernel_arrived_;    ///< per launch: its operation event came (ready)
    std::vector<std::size_t> ready_ops_;          ///< operations to start at now_
    std::size_t ops_in_flight_ = 0;               ///< started, not finished
    std::vector<std::uint8_t> awaiting_issue_;    ///< per operation: 1 = ready, waiting for the host to issue it
    Time host_interval_ = 0;                      ///< HostIssue::calls: host time per operation, else 0
    Time last_op_end_ = 0;
    std::vector<Time> copy_engine_free_;          ///< per copy engine (lane): when it can take the next copy
    double copy_pinned_ps_per_byte_ = 0;
    double copy_pageable_ps_per_byte_ = 0;
    Time copy_latency_ = 0;
    SmPool pool_;
    /// Index of a resident slot, and the payload of its completion and release events.
    [[nodiscard]] std::size_t resident_index(int sm, int slot) const {
        return (static_cast<std::size_t>(slot) << sm_bits_) | static_cast<std::size_t>(sm);
    }
    /// Slot-major: a slot's entries for all SMs are contiguous, so the few slots in use at
    /// low occupancy share cache lines (an SM-major layout with a power-of-two stride put
    /// them in a few cache sets).
    int sm_bits_;                     ///< SM count rounded up to a power of two, as a shift
    std::size_t sm_mask_;             ///< (1 << sm_bits_) - 1
    std::vector<Resident> resident_;  ///< [resident_index(sm, slot)]
    /// Completion groups: blocks of one dispatch batch that end at the same time share one
    /// completion event, whose payload is kGroup | id, listing their resident indices in
    /// dispatch order. Handling the group is handling their events one after the other: they
    /// would have had consecutive sequence numbers, so no other event comes between them.
    std::vector<std::vector<std::uint32_t>> groups_;
    std::vector<std::uint32_t> free_groups_;
    EventQueue queue_;
    Time now_ = 0;
    Time launch_overhead_ = 0;
    Time dispatch_latency_ = 0;
    Time dispatch_interval_ = 0;
    Time sm_block_launch_ = 0;
    double sm_warp_launch_ps_ = 0;
    bool launch_pipeline_;             ///< sm_block_launch_ or sm_warp_launch_ps_ is set
    std::vector<Time> sm_launch_free_;  ///< per SM: when its launch pipeline takes the next block
    Time completion_interval_ = 0;
    Time channel_next_ = 0;            ///< earliest time the completion channel takes the next completion
    /// With a completion sweep: the completions waiting for the channel, and whether a
    /// channel-take event (Phase::release, payload kChannelTake) is queued.
    std::unique_ptr<SweptCompletionQueue> swept_;
    bool channel_take_queued_ = false;
    Time last_end_ = 0;                ///< latest block end so far
    Time dispatcher_free_at_ = 0;
    bool dispatch_pending_ = false;
    Time dispatch_at_ = 0;
    std::array<Placement, 64> batch_;  ///< placements of one next_batch call
    std::vector<bool> claimed_;
    std::vector<std::uint8_t> room_changed_;  ///< by SM: in room_changed_list_
    std::vector<int> room_changed_list_;
    std::uint64_t units_done_ = 0;
    std::uint64_t units_dispatched_ = 0;

    struct Memo {
        bool recording = false;
        bool valid = false;
        std::size_t launch = 0;
        Time ready = 0;
        Time duration = 0;
        Time first_start_offset = 0;
        RepeatedLaunch totals;
    };
    bool memoise_ = true;
    DistributorState distributor_;  ///< shared by the launches' dispatchers (policy `walk`)
    Memo memo_;
    Time last_memo_end_ = 0;
};

}  // namespace gpusched::sim
