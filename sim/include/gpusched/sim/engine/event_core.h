// EventCore: the engine's clock, its event queue and the pending dispatch pass.
#pragma once

#include <cstdint>

#include "gpusched/sim/event_queue.h"

namespace gpusched::sim {

/// The time of a run and what is scheduled in it.
///
///     now:    the time of the event being handled; it never decreases, since events leave
///             the queue in (time, phase, sequence) order (EventQueue)
///     queue:  completion, release and operation events
///     pass:   none | pending at pass_at()
///
///     none --request_pass(t)--> pending at t
///     pending at p --request_pass(t)--> pending at min(p, t)
///     pending at p --begin_pass()--> none, now = p
///
/// The dispatch pass is not a queued event: the event loop runs it once every event of its
/// instant up to the dispatch phase has been handled (pass_due()), exactly where a
/// (time, dispatch-phase) event would run. No queued event has the dispatch phase (the
/// last one), so that is before the first later event.
///
/// It implements the role interfaces of sim/event_queue.h: the front end (once per
/// operation, never per block) knows it only as an EventScheduler and a TimeTeller; the
/// per-block units use this final class, so their calls are direct and inlined.
class EventCore final : public EventScheduler, public TimeTeller {
public:
    [[nodiscard]] Time now() const override { return now_; }
    /// The loop moves the clock to the event it handles (never backwards).
    void set_now(Time t) { now_ = t; }
    void schedule(Time when, Phase phase, std::uint32_t payload) override { queue_.push(when, phase, payload); }
    [[nodiscard]] EventQueue& queue() { return queue_; }
    [[nodiscard]] const EventQueue& queue() const { return queue_; }
    /// True when a queued event is at now (more of this instant is to come).
    [[nodiscard]] bool event_at_now() const { return !queue_.empty() && queue_.top().time == now_; }

    /// A dispatch pass at `at` (kept at the earlier time when one is already pending).
    void request_pass(Time at) {
        if (pass_pending_ && pass_at_ <= at) return;
        pass_pending_ = true;
        pass_at_ = at;
    }
    [[nodiscard]] bool pass_pending() const { return pass_pending_; }
    [[nodiscard]] Time pass_at() const { return pass_at_; }
    /// True when the pending pass comes before the next queued event.
    [[nodiscard]] bool pass_due() const { return pass_pending_ && (queue_.empty() || queue_.top().time > pass_at_); }
    /// The pass starts: now = its time, none pending.
    void begin_pass() {
        now_ = pass_at_;
        pass_pending_ = false;
    }
    /// Something is left to do: a queued event or a pending pass.
    [[nodiscard]] bool busy() const { return !queue_.empty() || pass_pending_; }

private:
    EventQueue queue_;
    Time now_ = 0;
    bool pass_pending_ = false;
    Time pass_at_ = 0;
};

}  // namespace gpusched::sim
