// HostTimeline: the workload's host threads issuing their calls, held back by synchronisations and full launch queues.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "gpusched/sim/event_queue.h"
#include "gpusched/sim/observer.h"
#include "gpusched/support/time.h"
#include "gpusched/workloads/application.h"

namespace gpusched::sim {

/// Each host thread of Application::host runs its calls in order (docs/workloads.md "Host timeline").
/// A thread's state and its transitions (t: the start of its next call, c: that call):
///
///     at t (a host event)
///       c = launch --> in-call until e = t + s, s = c.submit or else c.cpu (the runtime submits the
///           work as the call returns: on an idle GPU the traces' kernels start about kernel_launch_ns
///           after the call's end, whatever the call's length; an import writes `submit` where a
///           kernel started before its call returned; docs/workloads.md "Host timeline")
///     at e (in-call)
///       its stream's queue has room --> issued: c's operations are issued at e, the queue holds
///           one more entry (a graph launch: one for all of them); the call ends at e + (c.cpu - s)
///           (submitted until then, when s < c.cpu) and the next call starts next.gap later
///       the queue holds `depth` entries --> queue-blocked; when the oldest entry's operation
///           starts (at u), c's operations are issued at u and the call ends at u + (c.cpu - s)
///       c = sync, every operation issued so far on its stream (every stream: device) finished
///           by t --> the next call starts at t + c.cpu + next.gap
///       c = sync, some not finished --> sync-blocked; when the last of them finishes (at f),
///           the next call starts at f + c.cpu + next.gap
///       c of iteration r > 0 (a workload's `iterations`), some thread not past iteration r - 1
///           --> round-blocked; when the last thread ends its last call of r - 1 (at e), c starts at e
///     after its last call: done.
///
/// Invariants: a thread's calls start in order, each at or after the previous one's end; an
/// operation a call launches is issued exactly once, at its call's submit point (operations no call
/// launches are not held); a queue holds at most `depth` entries (each stream its own queue;
/// no limit without a depth). Time is integer picoseconds; a time past 2^63 ps is a TimeRangeError.
///
/// Host events are Phase::operation events with payload `payload_base + thread`; the owner
/// routes them to on_event and tells op_started / op_finished of every operation.
class HostTimeline final {
public:
    HostTimeline(const workloads::Application& app, std::size_t operations, std::optional<std::int64_t> queue_depth,
                 std::uint32_t payload_base, EventScheduler& events, const TimeTeller& clock);

    /// Whether the workload has host threads.
    [[nodiscard]] bool active() const { return !threads_.empty(); }
    /// Whether a call launches operation `op` (it waits for that call to be issued).
    [[nodiscard]] bool holds(std::size_t op) const { return !call_of_.empty() && call_of_[op] != kNone; }
    /// Schedules each thread's first call.
    void start();
    /// Thread `thread`'s next call starts (or retries) at now; appends the operations it issues.
    void on_event(std::size_t thread, std::vector<std::size_t>& issued);
    /// Operation `op` started at now (left its launch queue).
    void op_started(std::size_t op);
    /// Operation `op` finished at now.
    void op_finished(std::size_t op);

    /// At the end of a run: InputError naming the first thread still blocked (a sync waiting for
    /// work that waits for a later call of the same thread, through another thread's launch).
    void check_done() const;

    /// Called with each call's record when it ends (sim/observer.h).
    void set_listener(std::function<void(const HostCallRecord&)> listener) { listener_ = std::move(listener); }
    /// Time the threads spent blocked on synchronisations and on full launch queues, summed.
    [[nodiscard]] Time sync_wait() const { return sync_wait_; }
    [[nodiscard]] Time queue_wait() const { return queue_wait_; }
    /// When the last call of any thread ended.
    [[nodiscard]] Time last_call_end() const { return last_call_end_; }

private:
    static constexpr std::uint32_t kNone = ~std::uint32_t{0};
    enum class State : std::uint8_t { waiting, in_call, submitted, queue_blocked, sync_blocked, round_blocked, done };
    struct Thread {
        std::size_t next = 0;  ///< index of the next call
        State state = State::waiting;
        Time blocked_since = 0;
        Time call_start = 0;  ///< when the current call started
        Time blocked = 0;     ///< how long the current call has been blocked
        Time iteration_wait = 0;  ///< of it, waiting for the previous iteration (round_blocked)
        std::uint64_t rounds_done = 0;  ///< iterations whose calls it has all ended (done: all)
    };
    /// Whether every thread has ended its calls of the iterations before `round`.
    bool round_open(std::uint32_t round) const;
    /// Whether every operation the sync of `call` waits for has finished.
    bool sync_done(const workloads::HostCall& call) const;
    /// The call ended at `end`: the next one is scheduled at end + its gap (or the thread is done).
    void finish_call(std::size_t thread, Time end);
    int queue_of(std::size_t op) const;

    const workloads::Application& app_;
    std::vector<workloads::HostThread> threads_data_;
    std::vector<Thread> threads_;
    std::vector<std::uint32_t> call_of_;          ///< per operation: the thread launching it, kNone
    std::vector<std::uint8_t> finished_;          ///< per operation
    std::vector<std::uint8_t> holds_slot_;        ///< per operation: it holds a queue entry until it starts
    std::vector<std::int64_t> last_issued_;       ///< per stream: the last operation issued on it, -1
    std::vector<std::int64_t> queued_;            ///< per stream: queue entries held
    std::optional<std::int64_t> depth_;
    std::uint32_t payload_base_;
    EventScheduler& events_;
    const TimeTeller& clock_;
    Time sync_wait_ = 0, queue_wait_ = 0, last_call_end_ = 0;
    std::function<void(const HostCallRecord&)> listener_;
};

}  // namespace gpusched::sim
