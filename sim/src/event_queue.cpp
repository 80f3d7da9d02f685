// Binary-heap event queue with (time, phase, sequence) ordering.
#include "gpusched/sim/event_queue.h"

namespace gpusched::sim {

void EventQueue::push(Time when, Phase phase, std::uint32_t kind, std::uint32_t a, std::uint64_t b) {
    Event e{when, (std::uint64_t{static_cast<std::uint8_t>(phase)} << 56) | sequence_++, kind, a, b};
    std::size_t i = heap_.size();
    heap_.push_back(e);
    while (i > 0) {
        const std::size_t parent = (i - 1) / 2;
        if (!earlier(e, heap_[parent])) break;
        heap_[i] = heap_[parent];
        i = parent;
    }
    heap_[i] = e;
}

Event EventQueue::pop() {
    const Event result = heap_.front();
    const Event last = heap_.back();
    heap_.pop_back();
    const std::size_t n = heap_.size();
    if (n > 0) {
        std::size_t i = 0;
        while (true) {
            std::size_t child = 2 * i + 1;
            if (child >= n) break;
            if (child + 1 < n && earlier(heap_[child + 1], heap_[child])) ++child;
            if (!earlier(heap_[child], last)) break;
            heap_[i] = heap_[child];
            i = child;
        }
        heap_[i] = last;
    }
    return result;
}

}  // namespace gpusched::sim
