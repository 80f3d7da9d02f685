// Two-lane event queue (sorted FIFO run + binary heap) with (time, phase, sequence) ordering.
#include "gpusched/sim/event_queue.h"

#include <stdexcept>

#include "gpusched/support/checked_time.h"

namespace gpusched::sim {

void EventQueue::out_of_range(Time when) const {
    if (when >= kTimeLimit) throw_time_overflow("the simulation", "an event at " + format_ns(when) + " ns");
    throw std::logic_error("EventQueue: more than 2^36 events or payload out of range");
}

void EventQueue::push_heap(Event e) {
    heap_.push_back(e);
    sift_up(heap_.size() - 1, e);
}

void EventQueue::grow_run() {
    std::vector<Event> bigger(run_.size() * 2);
    for (std::size_t i = 0; i < run_size_; ++i) bigger[i] = run_[(run_head_ + i) & run_mask_];
    run_.swap(bigger);
    run_mask_ = run_.size() - 1;
    run_head_ = 0;
}

void EventQueue::sift_up(std::size_t i, Event e) {
    while (i > 0) {
        const std::size_t parent = (i - 1) / 2;
        if (!earlier(e, heap_[parent])) break;
        heap_[i] = heap_[parent];
        i = parent;
    }
    heap_[i] = e;
}

// Moves the hole at the root down to a leaf along the smaller children (one comparison per
// level), then sifts the last element up from there: the last element of a heap almost
// always belongs near the bottom, so this costs fewer comparisons than sifting it down.
Event EventQueue::pop_heap() {
    const Event result = heap_.front();
    const Event last = heap_.back();
    heap_.pop_back();
    const std::size_t n = heap_.size();
    if (n == 0) return result;
    std::size_t hole = 0;
    while (true) {
        std::size_t child = 2 * hole + 1;
        if (child >= n) break;
        if (child + 1 < n) child += static_cast<std::size_t>(earlier(heap_[child + 1], heap_[child]));  // no branch
        heap_[hole] = heap_[child];
        hole = child;
    }
    sift_up(hole, last);
    return result;
}

}  // namespace gpusched::sim
