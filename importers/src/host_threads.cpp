// HostThreads: launch and sync calls per host thread, with the CPU time between and inside them.
#include "host_threads.h"

#include <algorithm>


namespace gpusched::importers {

HostThreads::Thread& HostThreads::thread_of(const HostCall& call, std::uint32_t index) {
    auto [it, added] = threads_.try_emplace(call.tid);
    Thread& t = it->second;
    if (added) {
        t.timeline.name = std::to_string(call.tid);
        t.last_end = origin_;
        t.order = threads_.size();
    }
    if (t.last_call >= 0 && t.last_call != index && call.start < t.last_end) {
        ++overlaps_;
        overlap_ += t.last_end - call.start;
        if (first_overlap_.empty())
            first_overlap_ = "traceEvents[" + std::to_string(call.event_index) + "] starts before traceEvents[" + std::to_string(t.last_event) +
                             "] of host thread " + std::to_string(call.tid) + " ended";
    }
    return t;
}

void HostThreads::launch(const HostCall& call, std::uint32_t index, std::size_t item) {
    Thread& t = thread_of(call, index);
    if (t.last_call == index && !t.timeline.calls.empty() && t.timeline.calls.back().kind == workloads::HostCall::Kind::launch) {
        t.timeline.calls.back().ops.push_back(item);  // a CUDA graph: one call, its kernels in GPU order
        return;
    }
    workloads::HostCall c;
    c.ops = {item};
    const TraceTime start = std::max(call.start, t.last_end);  // an overlapping call starts when the previous ended
    c.gap = static_cast<Time>(start - t.last_end);
    c.cpu = static_cast<Time>(std::max<TraceTime>(call.end - start, 0));
    if (call.kind == HostCall::Kind::blocking_copy) c.cpu = 0;  // its time is the sync's that follows
    t.timeline.calls.push_back(std::move(c));
    t.last_end = call.kind == HostCall::Kind::blocking_copy ? start : std::max(call.end, start);
    t.last_call = index;
    t.last_event = call.event_index;
}

void HostThreads::sync(const HostCall& call, std::uint32_t index, int stream, TraceTime gpu_done) {
    Thread& t = thread_of(call, index);
    workloads::HostCall c;
    c.kind = workloads::HostCall::Kind::sync;
    c.stream = stream;
    const TraceTime start = std::max(call.start, t.last_end);
    c.gap = static_cast<Time>(start - t.last_end);
    c.cpu = static_cast<Time>(std::max<TraceTime>(call.end - std::max(start, gpu_done), 0));
    t.timeline.calls.push_back(std::move(c));
    t.last_end = std::max(call.end, start);
    t.last_call = index;
    t.last_event = call.event_index;
}

std::vector<std::string> HostThreads::notes() const {
    if (overlaps_ == 0) return {};
    return {std::to_string(overlaps_) + " host calls start before the previous call of their thread ended (" + first_overlap_ +
            ", ...; " + std::to_string(overlap_ / 1'000'000) + "." + std::to_string(overlap_ % 1'000'000 / 1000 / 100) +
            " us in all): each starts when the previous one ended"};
}

std::vector<workloads::HostThread> HostThreads::threads() const {
    std::vector<const Thread*> order;
    for (const auto& [tid, t] : threads_) order.push_back(&t);
    std::sort(order.begin(), order.end(), [](const Thread* a, const Thread* b) { return a->order < b->order; });
    std::vector<workloads::HostThread> out;
    for (const Thread* t : order) out.push_back(t->timeline);
    return out;
}

}  // namespace gpusched::importers
