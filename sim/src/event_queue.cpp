// Binary-heap event queue with (time, phase, sequence) ordering.
#include "gpusched/sim/event_queue.h"

#include <stdexcept>

namespace gpusched::sim {

void EventQueue::push(Time when, Phase phase, std::uint32_t payload) {
    if (sequence_ > Event::kMaxSequence || payload > Event::kMaxPayload)
        throw std::logic_error("EventQueue: more than 2^36 events or payload out of range");
    const Event e{when, (std::uint64_t{static_cast<std::uint8_t>(phase)} << 62) |
                            (sequence_++ << Event::kPayloadBits) | payload};
    heap_.push_back(e);
    sift_up(heap_.size() - 1, e);
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

// Pop moves the hole at the root down to a leaf along the smaller children (one comparison
// per level), then sifts the last element up from there: the last element of a heap almost
// always belongs near the bottom, so this costs fewer comparisons than sifting it down.
Event EventQueue::pop() {
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
