// SimObserver: what the engine reports while it runs; every output (summary, CSV, trace) is one.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpusched/hw/gpu_spec.h"
#include "gpusched/hw/occupancy.h"
#include "gpusched/sim/occupancy_table.h"
#include "gpusched/support/time.h"
#include "gpusched/workloads/application.h"

namespace gpusched::sim {

/// Static facts about a run, given to observers before the first event.
struct RunInfo {
    const hw::GpuSpec* gpu = nullptr;
    const workloads::Application* app = nullptr;
    std::string policy;                          ///< dispatch policy name
    std::string execution;                       ///< execution model name
    OccupancyTable occupancy;                    ///< per launch, same order as app->launches
    /// Per launch (same order): how many SMs its stream may use (its SM mask or partition, else
    /// every SM; StreamSmMap). A wave is blocks_per_sm x this many blocks, for every output.
    std::vector<int> launch_sm_counts;
};

/// One block's life. `slot` is the resident-block slot it occupied on its SM (0-based,
/// the lowest free one at dispatch), so blocks sharing a slot never overlap in time.
struct BlockRecord {
    std::size_t launch = 0;       ///< index into Application::launches
    std::uint64_t block = 0;      ///< linear block index within the launch
    int sm = 0;
    int slot = 0;
    Time dispatch = 0;            ///< the dispatcher chose the SM and reserved resources
    Time start = 0;               ///< the block began executing (dispatch + dispatch latency)
    Time end = 0;                 ///< its last warp finished and resources were released
};

/// A launch the engine did not simulate block by block because it repeats an identical
/// earlier launch that also started on an idle GPU (see Engine), or waves of a launch that
/// repeat its previous wave (same_as == launch): their per-SM totals.
struct RepeatedLaunch {
    std::size_t launch = 0;                  ///< the skipped launch
    std::size_t same_as = 0;                 ///< the launch it repeats
    std::uint64_t units = 0;                 ///< blocks (or warps) it ran
    std::vector<std::uint64_t> per_sm_units;  ///< indexed by SM id
    std::vector<Time> per_sm_busy;            ///< sum of (end - start) per SM
};

/// One host-device copy: when it could start, when its copy engine took it, when it ended.
struct CopyRecord {
    std::size_t operation = 0;  ///< index into Application::issue_order()
    int stream = 0;
    workloads::CopyDirection direction = workloads::CopyDirection::host_to_device;
    std::uint64_t bytes = 0;
    bool pinned = true;
    int engine = 0;             ///< the copy engine (lane) that carried it
    Time ready = 0;             ///< its dependencies had finished
    Time start = 0;
    Time end = 0;
};

/// One host call of a host timeline (workloads::HostThread), when it ended: its thread, its index
/// among the thread's calls, when it started (the previous call's end plus its gap) and ended, and
/// how long of that it was blocked (a sync: waiting for its work; a launch: for room in a full
/// launch queue). The call's CPU time is end - start - blocked.
struct HostCallRecord {
    std::size_t thread = 0;    ///< index into Application::host
    std::size_t call = 0;      ///< index into that thread's calls
    Time start = 0;
    Time end = 0;
    Time blocked = 0;
    Time iteration_wait = 0;   ///< of `blocked`: waiting for the other threads to end the previous iteration
};

/// Engine callbacks, in simulated-time order. Default implementations do nothing.
/// Observers must not keep per-block state unless they are asked to write per-block output.
class SimObserver {
public:
    virtual ~SimObserver() = default;
    /// False if the observer can take a repeated launch as totals (on_launch_repeated)
    /// instead of one callback per block; the engine memoises launches only when all agree.
    [[nodiscard]] virtual bool needs_every_block() const { return true; }
    /// Called instead of the per-block callbacks of a memoised launch, between its
    /// on_kernel_ready and on_kernel_completed; also for the waves of a launch the engine skipped
    /// as repeats of its previous wave (same_as == launch; sim/engine/wave_replay.h).
    virtual void on_launch_repeated(const RepeatedLaunch& repeated) { (void)repeated; }
    virtual void on_begin(const RunInfo& info) { (void)info; }
    /// The launch reached the head of its stream and entered the execution-engine queue.
    virtual void on_kernel_ready(std::size_t launch, Time when) { (void)launch, (void)when; }
    virtual void on_block_dispatched(const BlockRecord& block) { (void)block; }
    /// Called when the block ends; every field is final.
    virtual void on_block_completed(const BlockRecord& block) { (void)block; }
    /// All blocks of the launch have completed; `first_start` is its first block's start.
    virtual void on_kernel_completed(std::size_t launch, Time first_start, Time end) {
        (void)launch, (void)first_start, (void)end;
    }
    /// A copy was handed to its copy engine (called when it becomes ready; times are final).
    virtual void on_copy(const CopyRecord& copy) { (void)copy; }
    /// With a host timeline: a host call ended (called when its end is known, so not in end order
    /// across threads).
    virtual void on_host_call(const HostCallRecord& call) { (void)call; }
    /// With a host timeline, before on_end: the time its threads spent blocked in syncs and on
    /// full launch queues, summed over the threads.
    virtual void on_host_waits(Time sync_wait, Time queue_wait) { (void)sync_wait, (void)queue_wait; }
    virtual void on_end(Time makespan) { (void)makespan; }
};

}  // namespace gpusched::sim
