// EventQueue: deterministic priority queue of timed events, ordered by (time, phase, insertion sequence).
#pragma once

#include <cstdint>
#include <vector>

#include "gpusched/hw/time.h"

namespace gpusched::sim {

/// Phases order simultaneous events: every completion at time t is handled before any
/// kernel arrival at t, and those before the dispatcher runs at t. Within a phase, events
/// run in the order they were scheduled. So the same inputs always give the same run.
enum class Phase : std::uint8_t { completion = 0, arrival = 1, dispatch = 2 };

/// One scheduled event: what to do is (kind, a, b), interpreted by the owner of the queue.
struct Event {
    Time time = 0;
    std::uint64_t order = 0;  ///< phase in the top 8 bits, insertion sequence below
    std::uint32_t kind = 0;
    std::uint32_t a = 0;
    std::uint64_t b = 0;

    [[nodiscard]] Phase phase() const { return static_cast<Phase>(order >> 56); }
};

/// Role interface: something that can be asked to do work later.
class EventScheduler {
public:
    virtual ~EventScheduler() = default;
    virtual void schedule(Time when, Phase phase, std::uint32_t kind, std::uint32_t a, std::uint64_t b) = 0;
};

/// Role interface: the current simulated time.
class TimeTeller {
public:
    virtual ~TimeTeller() = default;
    [[nodiscard]] virtual Time now() const = 0;
};

/// Binary min-heap of events. push/pop are O(log n); no allocation once warmed up.
class EventQueue {
public:
    void push(Time when, Phase phase, std::uint32_t kind, std::uint32_t a, std::uint64_t b);
    [[nodiscard]] bool empty() const { return heap_.empty(); }
    [[nodiscard]] std::size_t size() const { return heap_.size(); }
    [[nodiscard]] const Event& top() const { return heap_.front(); }
    Event pop();

private:
    static bool earlier(const Event& x, const Event& y) {
        return x.time < y.time || (x.time == y.time && x.order < y.order);
    }
    std::vector<Event> heap_;
    std::uint64_t sequence_ = 0;
};

}  // namespace gpusched::sim
