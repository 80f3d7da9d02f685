// EventQueue: deterministic priority queue of timed events, ordered by (time, phase, insertion sequence).
#pragma once

#include <cstdint>
#include <vector>

#include "gpusched/support/time.h"

namespace gpusched::sim {

/// Phases order simultaneous events: every block completion at time t is handled before
/// any release of a finished block's resources at t, those before any operation event at t
/// (a kernel arrives in the execution-engine queue; a copy or host delay ends), and all of
/// them before the dispatcher runs at t. Within a phase, events run in the order they were
/// scheduled. So the same inputs always give the same run.
enum class Phase : std::uint8_t { completion = 0, release = 1, operation = 2, dispatch = 3 };

/// One scheduled event, 16 bytes: the time, then one word holding the phase (top 2 bits),
/// the insertion sequence (36 bits) and a 26-bit payload whose meaning the phase gives.
/// Comparing (time, word) orders by time, phase, then insertion: fully deterministic.
struct Event {
    Time time = 0;
    std::uint64_t word = 0;

    static constexpr int kPayloadBits = 26;
    static constexpr std::uint64_t kMaxPayload = (std::uint64_t{1} << kPayloadBits) - 1;
    static constexpr std::uint64_t kMaxSequence = (std::uint64_t{1} << 36) - 1;

    [[nodiscard]] Phase phase() const { return static_cast<Phase>(word >> 62); }
    [[nodiscard]] std::uint32_t payload() const { return static_cast<std::uint32_t>(word & kMaxPayload); }
};

/// Role interface: something that can be asked to do work later. The engine's EventCore
/// implements it; units that schedule once per operation (OperationFrontEnd) know only this.
class EventScheduler {
public:
    virtual ~EventScheduler() = default;
    virtual void schedule(Time when, Phase phase, std::uint32_t payload) = 0;
};

/// Role interface: the current simulated time (implemented by EventCore; read through it by
/// OperationFrontEnd).
class TimeTeller {
public:
    virtual ~TimeTeller() = default;
    [[nodiscard]] virtual Time now() const = 0;
};

/// Min-priority queue of events in two lanes:
///
///     push(e): e >= the run lane's last event ? append to the run lane : binary heap
///     pop():   the earlier of the run lane's first event and the heap's top
///
/// The run lane is a FIFO ring that only ever receives events in non-decreasing order, so
/// it stays sorted and costs O(1) per event. Simulations push mostly in order when blocks
/// have equal durations (every end is now + d), and then the heap stays nearly empty; with
/// scattered durations most events go to the heap, O(log n), and the lane costs one
/// comparison. Which lane holds an event never changes the order events come out in.
/// No allocation once both lanes have reached their largest size.
class EventQueue {
public:
    /// `payload` must be <= Event::kMaxPayload; more than 2^36 events in one run is a logic_error;
    /// `when` at or past 2^63 ps is a TimeRangeError (support/checked_time.h).
    [[gnu::always_inline]] void push(Time when, Phase phase, std::uint32_t payload) {
        if (((sequence_ >> 36) | (payload >> Event::kPayloadBits) | (when >> 63)) != 0) [[unlikely]]
            out_of_range(when);
        const Event e{when, (std::uint64_t{static_cast<std::uint8_t>(phase)} << 62) |
                                (sequence_++ << Event::kPayloadBits) | payload};
        if (run_size_ != 0 && earlier(e, run_last_)) {
            push_heap(e);
            return;
        }
        if (run_size_ > run_mask_) grow_run();
        run_[(run_head_ + run_size_) & run_mask_] = e;
        ++run_size_;
        run_last_ = e;
    }
    [[nodiscard]] bool empty() const { return heap_.empty() && run_size_ == 0; }
    [[nodiscard]] std::size_t size() const { return heap_.size() + run_size_; }
    [[nodiscard]] const Event& top() const {
        if (run_size_ == 0) return heap_.front();
        const Event& first = run_[run_head_];
        return heap_.empty() || earlier(first, heap_.front()) ? first : heap_.front();
    }
    /// True when the next event is at `when` with phase `phase`.
    [[nodiscard]] bool next_is(Time when, Phase phase) const {
        if (empty()) return false;
        const Event& next = top();
        return next.time == when && next.phase() == phase;
    }
    Event pop() {
        if (run_size_ > 0 && (heap_.empty() || earlier(run_[run_head_], heap_.front()))) {
            const Event result = run_[run_head_];
            run_head_ = (run_head_ + 1) & run_mask_;
            --run_size_;
            return result;
        }
        return pop_heap();
    }

private:
    static bool earlier(const Event& x, const Event& y) {
        // One 128-bit comparison of (time, word): branch-free on x86-64.
        using Key = unsigned __int128;
        return ((Key{x.time} << 64) | x.word) < ((Key{y.time} << 64) | y.word);
    }
    [[noreturn]] void out_of_range(Time when) const;
    void push_heap(Event e);
    void sift_up(std::size_t i, Event e);
    Event pop_heap();
    void grow_run();

    std::vector<Event> heap_;
    std::vector<Event> run_ = std::vector<Event>(64);  ///< ring buffer, capacity a power of two
    std::size_t run_mask_ = 63;                         ///< run_.size() - 1
    std::size_t run_head_ = 0;
    std::size_t run_size_ = 0;
    Event run_last_;              ///< the last event appended to the run lane (valid when run_size_ > 0)
    std::uint64_t sequence_ = 0;
};

}  // namespace gpusched::sim
