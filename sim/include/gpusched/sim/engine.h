// Engine: the discrete-event simulation of one application on one GPU under one dispatch policy.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "gpusched/hw/gpu_spec.h"
#include "gpusched/sim/dispatch_policy.h"
#include "gpusched/sim/engine/completion_channel.h"
#include "gpusched/sim/engine/completion_groups.h"
#include "gpusched/sim/engine/dispatcher.h"
#include "gpusched/sim/engine/event_core.h"
#include "gpusched/sim/engine/launch_pipeline.h"
#include "gpusched/sim/engine/launch_table.h"
#include "gpusched/sim/engine/memoiser.h"
#include "gpusched/sim/engine/operation_front_end.h"
#include "gpusched/sim/engine/resident_table.h"
#include "gpusched/sim/engine/wave_replay.h"
#include "gpusched/sim/execution/execution_model.h"
#include "gpusched/sim/observer.h"
#include "gpusched/sim/sm_pool.h"
#include "gpusched/workloads/application.h"

namespace gpusched::sim {

struct SimResult {
    Time makespan = 0;           ///< time the last block completed
    std::uint64_t units = 0;     ///< blocks (or warps, for warp-level policies) run
};

/// Runs an application to completion. The engine is the event loop and the wiring between
/// its units, each owned by value, each documenting its own rules (sim/engine/):
///
///     EventCore          now, the event queue, the pending dispatch pass
///     OperationFrontEnd  operations, streams, events, copies, host issue
///     LaunchTable        every launch's state, built and checked once (shapes, occupancy,
///                        priorities; StreamSmMap: each stream's SMs)
///     Dispatcher         ready launches, dispatch passes (leftover, priority, interval),
///                        room-change batching, the refill fast path
///     LaunchPipeline     dispatch latency and each SM's launch pipeline
///     SmPool             per-SM resources;  ResidentTable: the resident blocks
///     CompletionChannel  the serial completion channel and its sweep
///     CompletionGroups   blocks of one batch that end together share one event
///     Memoiser           identical launches on an idle GPU are not simulated again
///     WaveReplay         identical full waves of a fixed-duration launch are not dispatched again
///     ExecutionModel     how long a block runs (fixed: the engine computes it inline)
///
/// Life of a block: pending --(policy picks an SM with room; resources reserved)-->
/// dispatched --(LaunchPipeline)--> running --(its duration: `fixed`; or as long as its work
/// takes next to its neighbours: `shared`)--> complete (observers see it) --(CompletionChannel)-->
/// released (its slot is free; the Dispatcher learns at the next pass, or refills it at once).
///
/// Same-instant completions: blocks that end at one instant (no completion channel) are
/// ended and released together, then one pass runs; with fixed durations, no observers and
/// one active launch, the blocks of one dispatch batch that end together share one completion
/// event (CompletionGroups). Both give exactly the schedule of one event per block.
///
/// The engine formats nothing: observers receive events. Memory is O(SMs x slots in use +
/// launches), independent of the number of blocks: per-slot state exists for the slots that
/// blocks have used (ResidentTable, SmPool), and a launch costs a LaunchState of a few words
/// (launches of one shape share footprints and occupancy; docs/performance.md, Memory).
///
/// Time range: every event is below 2^63 ps (support/checked_time.h). A block, copy, delay
/// or repeated launch that would end at or past it is a TimeRangeError (an InputError)
/// naming its launch or operation; a `shared` block's provisional end past it waits at
/// 2^63 - 1 ps and is the error only when nothing revises it before then.
class Engine final : private CompletionSink {
public:
    /// Creates the execution model by name (make_execution_model), then as below. Runs are
    /// built with sim::Simulation, which resolves the default model (kDefaultExecutionModel).
    Engine(const hw::GpuSpec& gpu, const workloads::Application& app, const DispatchPolicy& policy,
           const std::string& execution);
    /// Checks every launch against the GPU (InputError naming the launch when one cannot
    /// launch or a stream's SM mask is invalid). `execution` must not be null.
    Engine(const hw::GpuSpec& gpu, const workloads::Application& app, const DispatchPolicy& policy,
           std::unique_ptr<ExecutionModel> execution);
    /// The engine keeps references to the application: a temporary one would dangle.
    Engine(const hw::GpuSpec& gpu, const workloads::Application&& app, const DispatchPolicy& policy,
           const std::string& execution) = delete;
    Engine(const hw::GpuSpec& gpu, const workloads::Application&& app, const DispatchPolicy& policy,
           std::unique_ptr<ExecutionModel> execution) = delete;
    ~Engine() override;

    void add_observer(SimObserver& observer) { observers_.push_back(&observer); }
    /// Memoisation of identical launches on an idle GPU (on by default).
    void set_memoise(bool on) { memo_.set_enabled(on); }
    /// Skipping the repeated waves of a launch of identical fixed-duration blocks (on by default).
    void set_wave_replay(bool on) { replay_.set_enabled(on); }
    /// Units the wave replay skipped in the run (for tests and benchmarks).
    [[nodiscard]] std::uint64_t replayed_units() const { return replay_.skipped_units(); }
    /// Occupancy of each launch (valid after construction).
    [[nodiscard]] const OccupancyTable& occupancy() const { return launches_.occupancy(); }
    SimResult run();

private:
    /// What starting a unit reads of the engine (read once per batch of placements).
    struct UnitStart {
        Time now;
        Time ready;     ///< now + dispatch latency
        bool pipeline;  ///< the launch pipeline is active
        bool fixed;     ///< fixed durations
        bool more;      ///< after_dispatch is needed
    };

    void set_end(int sm, int slot, Time end) override;
    void on_operation_event(std::size_t op);
    /// Nothing resident or queued, no other operation in flight, memoisation allowed.
    [[nodiscard]] bool idle_for_memo() const;
    void repeat_memo(std::size_t launch);
    void on_kernel_ready(std::size_t launch);
    /// The block in residents_[at] ended at now; true when its slot is to be released at once.
    bool on_block_end(std::size_t at);
    void report_block_completed(const Resident& r, int sm, int slot);
    /// The last block of launch `index` ended at now.
    void on_launch_completed(std::size_t index);
    /// After a block's release on `sm`: the Dispatcher's fast path, starting its placement.
    bool try_refill(int sm);
    void run_dispatch_pass();
    /// The one active launch whose passes on an empty GPU can be replayed wave by wave, if any.
    [[nodiscard]] std::optional<std::size_t> wave_candidate() const;
    /// At a pass on an empty GPU for `index`: skips the waves that repeat the recorded one.
    void skip_repeated_waves(std::size_t index);
    void request_dispatch(Time when) { dispatcher_.request_pass(core_, when); }
    [[nodiscard]] UnitStart unit_start() const;
    /// Reserves a placement's resources and starts its block (schedules its end, pushing its
    /// completion event when `push`); returns its resident index.
    std::size_t start_unit(LaunchState& launch, std::size_t index, const Placement& placement, const UnitStart& how,
                           bool push);
    /// start_unit for each placement (fixed durations, nothing else to do per unit, no
    /// completion channel: placements that end together share a completion group).
    void dispatch_units(LaunchState& launch, std::size_t index, std::span<const Placement> placements);
    /// Ends and releases the members of a completion group whose event came at `time`, in
    /// order, then frees the group.
    void end_group(std::uint32_t group, Time time);
    /// What a dispatch does beyond the fixed-duration, single-launch, unobserved case.
    void after_dispatch(LaunchState& launch, std::size_t index, const Placement& placement, int slot);
    [[noreturn]] void throw_no_room(int sm) const;
    /// "launch N (NAME[, FILE:LINE])", for messages.
    [[nodiscard]] std::string describe_launch(std::size_t index) const;
    /// TimeRangeError: block `block` of launch `index` would end at or past 2^63 ps (after
    /// `duration`, or at the rates the execution model gives it when nullopt).
    [[noreturn]] void throw_block_end_overflow(std::size_t index, std::uint64_t block, Time start,
                                               std::optional<Time> duration) const;

    // Declared in the order the constructor checks the inputs (the first problem is reported).
    const hw::GpuSpec& gpu_;
    const workloads::Application& app_;  ///< has a launch
    const DispatchPolicy& policy_;
    std::unique_ptr<ExecutionModel> execution_;
    bool fixed_durations_;
    std::vector<SimObserver*> observers_;
    EventCore core_;
    SmPool pool_;
    ResidentTable residents_;
    CompletionChannel channel_;
    CompletionGroups groups_;
    LaunchPipeline pipeline_;
    LaunchTable launches_;
    Dispatcher dispatcher_;
    OperationFrontEnd front_;
    Memoiser memo_;
    WaveReplay replay_;
    /// Every operation on one stream: nothing can start beside a launch, so pending events (a host
    /// timeline's calls) do not keep it from being memoised.
    bool one_stream_;
    static bool on_one_stream(const workloads::Application& app);
    std::uint64_t units_done_ = 0;
    Time last_end_ = 0;  ///< latest block end so far
};

}  // namespace gpusched::sim
