// HostTimeline: host threads' calls in order, issuing operations, waiting for syncs and launch-queue room.
#include "gpusched/sim/engine/host_timeline.h"

#include <algorithm>

#include "gpusched/support/checked_time.h"
#include "gpusched/support/input_error.h"

namespace gpusched::sim {

namespace {
constexpr std::size_t kStreams = 1024;
}

HostTimeline::HostTimeline(const workloads::Application& app, std::size_t operations, std::optional<std::int64_t> queue_depth,
                           std::uint32_t payload_base, EventScheduler& events, const TimeTeller& clock)
    : app_(app), threads_data_(app.host), depth_(queue_depth), payload_base_(payload_base), events_(events), clock_(clock) {
    if (threads_data_.empty()) return;
    threads_.resize(threads_data_.size());
    call_of_.assign(operations, kNone);
    finished_.assign(operations, 0);
    holds_slot_.assign(operations, 0);
    last_issued_.assign(kStreams, -1);
    queued_.assign(kStreams, 0);
    for (std::size_t t = 0; t < threads_data_.size(); ++t)
        for (const workloads::HostCall& call : threads_data_[t].calls)
            for (const std::size_t op : call.ops) call_of_[op] = static_cast<std::uint32_t>(t);
}

int HostTimeline::queue_of(std::size_t op) const { return app_.operations[op].stream; }

void HostTimeline::start() {
    for (std::size_t t = 0; t < threads_.size(); ++t) {
        threads_[t].call_start = threads_data_[t].calls.front().gap;
        events_.schedule(threads_[t].call_start, Phase::operation, payload_base_ + static_cast<std::uint32_t>(t));
    }
}

bool HostTimeline::sync_done(const workloads::HostCall& call) const {
    const auto done = [&](int stream) {
        const std::int64_t op = last_issued_[static_cast<std::size_t>(stream)];
        return op < 0 || finished_[static_cast<std::size_t>(op)] != 0;
    };
    if (call.stream >= 0) return done(call.stream);
    for (int s = 0; s < static_cast<int>(kStreams); ++s)
        if (!done(s)) return false;
    return true;
}

bool HostTimeline::round_open(std::uint32_t round) const {
    for (const Thread& th : threads_)
        if (th.rounds_done < round) return false;
    return true;
}

void HostTimeline::finish_call(std::size_t thread, Time end) {
    Thread& th = threads_[thread];
    last_call_end_ = std::max(last_call_end_, end);
    if (listener_) listener_({thread, th.next, th.call_start, end, th.blocked, th.iteration_wait});
    th.blocked = 0;
    th.iteration_wait = 0;
    const auto& calls = threads_data_[thread].calls;
    const std::uint32_t round = calls[th.next].round;
    const bool last = ++th.next == calls.size();
    if (last || calls[th.next].round != round) {
        // The thread ended its calls of `round`: threads waiting for it to open the next start at its end.
        th.rounds_done = last ? ~std::uint64_t{0} : std::uint64_t{round} + 1;
        for (std::size_t t = 0; t < threads_.size(); ++t) {
            Thread& other = threads_[t];
            if (other.state != State::round_blocked || !round_open(threads_data_[t].calls[other.next].round)) continue;
            other.state = State::waiting;
            other.blocked += end - other.blocked_since;
            other.iteration_wait += end - other.blocked_since;
            events_.schedule(end, Phase::operation, payload_base_ + static_cast<std::uint32_t>(t));
        }
    }
    if (last) {
        th.state = State::done;
        return;
    }
    th.state = State::waiting;
    const workloads::HostCall& next = calls[th.next];
    th.call_start = checked_time_sum(end, next.gap, [&] { return next.where + ": the host call's start"; });
    events_.schedule(th.call_start, Phase::operation, payload_base_ + static_cast<std::uint32_t>(thread));
}

void HostTimeline::on_event(std::size_t thread, std::vector<std::size_t>& issued) {
    Thread& th = threads_[thread];
    const Time now = clock_.now();
    const workloads::HostCall& call = threads_data_[thread].calls[th.next];
    const auto what = [&] { return call.where + ": the host call's end"; };
    if (th.state == State::waiting && call.round > 0 && !round_open(call.round)) {
        th.state = State::round_blocked;
        th.blocked_since = now;
        return;
    }
    if (call.kind == workloads::HostCall::Kind::sync) {
        if (!sync_done(call)) {
            th.state = State::sync_blocked;
            th.blocked_since = now;
            return;
        }
        finish_call(thread, checked_time_sum(now, call.cpu, what));
        return;
    }
    if (th.state == State::waiting) {
        // The launch call runs until the runtime submits its work: as it returns, or at `submit`.
        th.state = State::in_call;
        events_.schedule(checked_time_sum(now, call.submit.value_or(call.cpu), what), Phase::operation,
                         payload_base_ + static_cast<std::uint32_t>(thread));
        return;
    }
    if (th.state == State::submitted) {  // the rest of the call after its work was submitted
        finish_call(thread, now);
        return;
    }
    const int queue = queue_of(call.ops.front());
    if (depth_ && queued_[static_cast<std::size_t>(queue)] >= *depth_) {
        if (th.state != State::queue_blocked) th.blocked_since = now;
        th.state = State::queue_blocked;
        return;
    }
    if (th.state == State::queue_blocked) {
        queue_wait_ += now - th.blocked_since;
        th.blocked += now - th.blocked_since;
    }
    ++queued_[static_cast<std::size_t>(queue)];
    holds_slot_[call.ops.front()] = 1;
    for (const std::size_t op : call.ops) {
        last_issued_[static_cast<std::size_t>(app_.operations[op].stream)] = static_cast<std::int64_t>(op);
        issued.push_back(op);
    }
    const Time rest = call.cpu - call.submit.value_or(call.cpu);  // the workload reader holds submit <= cpu
    if (rest == 0) {
        finish_call(thread, now);
        return;
    }
    th.state = State::submitted;
    events_.schedule(checked_time_sum(now, rest, what), Phase::operation, payload_base_ + static_cast<std::uint32_t>(thread));
}

void HostTimeline::op_started(std::size_t op) {
    if (holds_slot_.empty() || holds_slot_[op] == 0) return;
    holds_slot_[op] = 0;
    const int queue = queue_of(op);
    --queued_[static_cast<std::size_t>(queue)];
    for (std::size_t t = 0; t < threads_.size(); ++t) {
        if (threads_[t].state != State::queue_blocked) continue;
        const workloads::HostCall& call = threads_data_[t].calls[threads_[t].next];
        if (queue_of(call.ops.front()) == queue)
            events_.schedule(clock_.now(), Phase::operation, payload_base_ + static_cast<std::uint32_t>(t));
    }
}

void HostTimeline::check_done() const {
    for (std::size_t t = 0; t < threads_.size(); ++t) {
        if (threads_[t].state == State::done) continue;
        const workloads::HostCall& call = threads_data_[t].calls[threads_[t].next];
        throw InputError("host thread '" + threads_data_[t].name + "' never finished its call at " + call.where +
                         (threads_[t].state == State::sync_blocked    ? ": the sync waits for work that waits, through its stream, for a later call of the same thread"
                          : threads_[t].state == State::round_blocked ? ": its iteration waits for another thread that never ends the one before"
                                                                      : ": its launch waits for a queue entry that never frees"));
    }
}

void HostTimeline::op_finished(std::size_t op) {
    if (finished_.empty()) return;
    finished_[op] = 1;
    const Time now = clock_.now();
    for (std::size_t t = 0; t < threads_.size(); ++t) {
        Thread& th = threads_[t];
        if (th.state != State::sync_blocked) continue;
        const workloads::HostCall& call = threads_data_[t].calls[th.next];
        if (!sync_done(call)) continue;
        sync_wait_ += now - th.blocked_since;
        th.blocked += now - th.blocked_since;
        finish_call(t, checked_time_sum(now, call.cpu, [&] { return call.where + ": the host call's end"; }));
    }
}

}  // namespace gpusched::sim
