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

void HostThreads::launch(const HostCall& call, std::uint32_t index, std::size_t item, TraceTime gpu_start, bool stream_idle) {
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
    if (c.cpu > 0) launches_.push_back({call.tid, t.timeline.calls.size(), start, call.end, gpu_start, stream_idle});
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

HostThreads::Lead HostThreads::launch_lead() const {
    std::vector<TraceTime> leads;
    for (const Launch& l : launches_)
        if (l.stream_idle && l.gpu_start >= l.end) leads.push_back(l.gpu_start - l.end);
    if (leads.empty()) return {};
    const auto middle = leads.begin() + static_cast<std::ptrdiff_t>(leads.size() / 2);
    std::nth_element(leads.begin(), middle, leads.end());
    return {*middle, leads.size()};
}

std::optional<Time> HostThreads::submit_of(const Launch& l, const Lead& lead) const {
    if (l.gpu_start >= l.end) return std::nullopt;  // started after the call returned: submitted as it returned
    const TraceTime cpu = l.end - l.start;
    return static_cast<Time>(std::clamp<TraceTime>(l.gpu_start - lead.lead - l.start, 0, cpu));
}

namespace {
std::string microseconds(TraceTime ps) {
    return std::to_string(ps / 1'000'000) + "." + std::to_string(ps % 1'000'000 / 100'000) + " us";
}
}  // namespace

std::vector<std::string> HostThreads::notes() const {
    std::vector<std::string> notes;
    if (overlaps_ > 0)
        notes.push_back(std::to_string(overlaps_) + " host calls start before the previous call of their thread ended (" +
                        first_overlap_ + ", ...; " + microseconds(overlap_) + " in all): each starts when the previous one ended");
    const Lead lead = launch_lead();
    std::size_t early = 0;
    for (const Launch& l : launches_) early += submit_of(l, lead) ? 1 : 0;
    if (early > 0)
        notes.push_back(std::to_string(early) + (early == 1 ? " launch call returned after the GPU had started its work"
                                                            : " launch calls returned after the GPU had started their work") +
                        ": each submits at that start less the trace's launch lead (`submit`), " + microseconds(lead.lead) +
                        ", the median time from a call's return to its operation's start over the " + std::to_string(lead.idle) +
                        " launches that found their stream idle" + (lead.idle == 0 ? " (none: lead 0)" : ""));
    return notes;
}

std::vector<workloads::HostThread> HostThreads::threads() const {
    std::map<std::int64_t, workloads::HostThread> timelines;
    for (const auto& [tid, t] : threads_) timelines[tid] = t.timeline;
    const Lead lead = launch_lead();
    for (const Launch& l : launches_) timelines[l.tid].calls[l.call].submit = submit_of(l, lead);
    std::vector<std::pair<std::size_t, std::int64_t>> order;  // (first call's order, thread)
    for (const auto& [tid, t] : threads_) order.emplace_back(t.order, tid);
    std::sort(order.begin(), order.end());
    std::vector<workloads::HostThread> out;
    for (const auto& [position, tid] : order) out.push_back(std::move(timelines[tid]));
    return out;
}

}  // namespace gpusched::importers
