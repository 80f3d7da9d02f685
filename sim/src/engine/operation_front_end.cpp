// OperationFrontEnd: starting and finishing operations; host issue; copies on the copy engines.
#include "gpusched/sim/engine/operation_front_end.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "gpusched/sim/engine/spec_time.h"
#include "gpusched/support/checked_time.h"
#include "gpusched/support/input_error.h"

namespace gpusched::sim {

OperationFrontEnd::OperationFrontEnd(const hw::GpuSpec& gpu, const workloads::Application& app,
                                     EventScheduler& events, const TimeTeller& clock,
                                     const std::vector<SimObserver*>& observers)
    : events_(events),
      clock_(clock),
      observers_(observers),
      graph_(workloads::build_operation_graph(app)),
      launch_overhead_(kernel_launch_ps(gpu, app.host_issue)),
      start_interval_(overhead_ps(gpu.kernel_start_interval_ns)),
      per_pending_kernel_(app.host_issue == workloads::HostIssue::graph
                              ? overhead_ps(gpu.graph_launch_per_pending_kernel_ns)
                              : 0),
      host_(app, graph_.size(), gpu.launch_queue_depth, static_cast<std::uint32_t>(graph_.size()), events, clock) {
    if (graph_.size() + app.host.size() > Event::kMaxPayload)
        throw InputError("the workload has more than " + std::to_string(Event::kMaxPayload) + " operations and host threads");
    unfinished_deps_ = graph_.predecessors;
    if (host_.active())
        host_.set_listener([this](const HostCallRecord& call) {
            for (auto* obs : observers_) obs->on_host_call(call);
        });
    if (host_.active() && app.host_issue == workloads::HostIssue::calls)
        throw InputError("the workload has host threads (`host`) and `issue: host-calls`: give one of them");
    for (std::size_t op = 0; op < graph_.size(); ++op)
        if (host_.holds(op)) ++unfinished_deps_[op];
    kernel_arrived_.assign(app.launches.size(), 0);
    if (app.host_issue == workloads::HostIssue::calls) {
        if (!gpu.host_launch_interval_ns)
            throw InputError("the workload issues its operations as host calls (issue: host-calls), but the GPU spec " +
                             gpu.name + " has no overheads.host_launch_interval_ns");
        host_interval_ = overhead_ps(gpu.host_launch_interval_ns);
        awaiting_issue_.assign(graph_.size(), 0);
    }
    prepare_copies(gpu);
}

void OperationFrontEnd::prepare_copies(const hw::GpuSpec& gpu) {
    if (!graph_.listed()) return;  // only kernels
    const std::vector<workloads::Operation>& ops = graph_.app->operations;
    const auto copy = std::find_if(ops.begin(), ops.end(),
                                   [](const workloads::Operation& op) { return op.kind == workloads::Operation::Kind::copy; });
    if (copy == ops.end()) return;
    const std::string what = workloads::describe_operation(*copy, static_cast<std::size_t>(copy - ops.begin()));
    if (!gpu.host_link_gbps || !gpu.copy_engines)
        throw InputError(what + ": the GPU spec " + gpu.name +
                         " lacks host_link.bandwidth_gbps or host_link.copy_engines, which copies need");
    if (*gpu.copy_engines < 1)
        throw InputError(what + ": " + gpu.name + " has no copy engine (host_link.copy_engines: 0); copies that "
                         "stall kernels are not modelled");
    copy_engine_free_.assign(*gpu.copy_engines >= 2 ? 2 : 1, 0);
    // bytes / (GB/s) = ns per 10^9 bytes: 1000 / gbps picoseconds per byte.
    copy_pinned_ps_per_byte_ = 1000.0 / *gpu.host_link_gbps;
    if (gpu.host_link_pageable_gbps) copy_pageable_ps_per_byte_ = 1000.0 / *gpu.host_link_pageable_gbps;
    copy_latency_ = overhead_ps(gpu.host_link_latency_ns);
    for (std::size_t i = 0; i < ops.size(); ++i) {
        const workloads::Operation& op = ops[i];
        if (op.kind == workloads::Operation::Kind::copy && !op.copy.pinned && !gpu.host_link_pageable_gbps)
            throw InputError(workloads::describe_operation(op, i) + ": a pageable copy needs "
                             "host_link.pageable_bandwidth_gbps, which the GPU spec " + gpu.name + " lacks");
    }
}

std::string OperationFrontEnd::describe(std::size_t op) const { return graph_.describe(op); }

void OperationFrontEnd::start() {
    if (host_.active()) host_.start();
    for (std::size_t op = 0; op < graph_.size(); ++op)
        if (unfinished_deps_[op] == 0) ready_ops_.push_back(op);
    start_ready();
}

void OperationFrontEnd::start_ready() {
    // In the order they became ready (ascending within one finished operation); start_op may
    // append more (record and wait finish at once).
    for (std::size_t i = 0; i < ready_ops_.size(); ++i) start_op(ready_ops_[i]);
    ready_ops_.clear();
}

void OperationFrontEnd::start_op(std::size_t op) {
    ++ops_in_flight_;
    const Time now = clock_.now();
    host_.op_started(op);
    if (host_interval_ > 0 && awaiting_issue_[op] == 0) {
        const Time issued = checked_time_product(host_interval_, op, [&] { return describe(op) + ": its host issue time"; });
        if (issued > now) {
            awaiting_issue_[op] = 1;
            events_.schedule(issued, Phase::operation, static_cast<std::uint32_t>(op));
            return;
        }
    }
    const auto payload = static_cast<std::uint32_t>(op);
    switch (graph_.kind(op)) {
        case workloads::Operation::Kind::kernel: {
            // Arrivals are computed in the order kernels start, now + one overhead (+ p per kernel
            // still on its way, issue: graph); the start interval spaces them in that order.
            const auto what = [&] { return describe(op) + ": its arrival"; };
            const Time queued = checked_time_product(per_pending_kernel_, kernels_pending_, what);
            const Time arrival =
                std::max(checked_time_sum(checked_time_sum(now, launch_overhead_, what), queued, what), next_arrival_);
            ++kernels_pending_;
            if (start_interval_ > 0) next_arrival_ = checked_time_sum(arrival, start_interval_, what);
            events_.schedule(arrival, Phase::operation, payload);
            break;
        }
        case workloads::Operation::Kind::copy: start_copy(op); break;
        case workloads::Operation::Kind::delay:
            events_.schedule(checked_time_sum(now, graph_.listed_op(op).delay, [&] { return describe(op) + ": its end"; }),
                             Phase::operation, payload);
            break;
        case workloads::Operation::Kind::record:
        case workloads::Operation::Kind::wait: finish_op(op); break;
    }
}

void OperationFrontEnd::start_copy(std::size_t op) {
    const Time now = clock_.now();
    const workloads::Operation& o = graph_.listed_op(op);
    const int engine = copy_engine_free_.size() == 1 || o.copy.direction == workloads::CopyDirection::host_to_device ? 0 : 1;
    Time& free_at = copy_engine_free_[static_cast<std::size_t>(engine)];
    const double ps_per_byte = o.copy.pinned ? copy_pinned_ps_per_byte_ : copy_pageable_ps_per_byte_;
    const Time start = std::max(now, free_at);
    const auto what = [&] { return describe(op) + ": its end"; };
    const std::optional<Time> transfer = time_from_ps(ps_per_byte * static_cast<double>(o.copy.bytes));
    if (!transfer)
        throw_time_overflow(describe(op), "its transfer of " + std::to_string(o.copy.bytes) + " bytes at the host link's bandwidth");
    const Time end = checked_time_sum(checked_time_sum(start, copy_latency_, what), *transfer, what);
    free_at = end;
    const CopyRecord record{op, o.stream, o.copy.direction, o.copy.bytes, o.copy.pinned, engine, now, start, end};
    for (auto* obs : observers_) obs->on_copy(record);
    events_.schedule(end, Phase::operation, static_cast<std::uint32_t>(op));
}

void OperationFrontEnd::finish_op(std::size_t op) {
    --ops_in_flight_;
    last_op_end_ = std::max(last_op_end_, clock_.now());
    host_.op_finished(op);
    for (std::size_t next : graph_.successors(op))
        if (--unfinished_deps_[next] == 0) ready_ops_.push_back(next);
}

std::optional<std::size_t> OperationFrontEnd::on_event(std::size_t op) {
    if (op >= graph_.size()) {  // a host thread's call
        host_.on_event(op - graph_.size(), issued_);
        for (const std::size_t next : issued_)
            if (--unfinished_deps_[next] == 0) ready_ops_.push_back(next);
        issued_.clear();
        return std::nullopt;
    }
    if (host_interval_ > 0 && awaiting_issue_[op] == 1) {
        awaiting_issue_[op] = 2;  // issued now: start it (2 = never waits again)
        --ops_in_flight_;
        start_op(op);
        return std::nullopt;
    }
    if (graph_.kind(op) == workloads::Operation::Kind::kernel) {
        const std::size_t launch = graph_.launch(op);
        if (kernel_arrived_[launch] == 0) {
            kernel_arrived_[launch] = 1;
            --kernels_pending_;
            return launch;
        }
    }
    finish_op(op);  // a copy or delay ended, or a memoised kernel's repeated run did
    return std::nullopt;
}

void OperationFrontEnd::kernel_finished(std::size_t launch) {
    finish_op(graph_.kernel_op[launch]);
    start_ready();
}

}  // namespace gpusched::sim
