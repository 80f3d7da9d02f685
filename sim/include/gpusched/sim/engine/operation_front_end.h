// OperationFrontEnd: the GPU front end: operations in stream order, events, host issue and copy engines.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/hw/gpu_spec.h"
#include "gpusched/sim/engine/host_timeline.h"
#include "gpusched/sim/event_queue.h"
#include "gpusched/sim/observer.h"
#include "gpusched/workloads/application.h"
#include "gpusched/workloads/operation_graph.h"

namespace gpusched::sim {

/// Life of an operation (workloads::OperationGraph: stream order, event record/wait, `after`):
///
///     waiting --(every operation it depends on has finished)--> started --> finished,
///     and each dependant whose last dependency this was starts at that instant, in the
///     order they became ready (ascending within one finished operation).
///
///     kernel: started --(+ kernel_launch_ns, or graph_kernel_launch_ns for issue: graph)--> ready
///             (in the execution-engine queue: on_event returns its launch) --(the engine runs
///             it)--> finished (kernel_finished). With kernel_start_interval_ns s, kernels become
///             ready GPU-wide at least s apart: ready = max(started + launch, previous ready + s).
///             A CUDA graph's kernel (issue: graph) with graph_launch_per_pending_kernel_ns p takes
///             p more per other kernel started and not yet ready at its start (n of them):
///             ready = max(started + launch + n p, previous ready + s).
///     copy:   started --(its copy engine is free)--> transferring --(latency + bytes /
///             bandwidth)--> finished. With copy_engines >= 2 host-to-device and
///             device-to-host copies have an engine each (the link is per direction), with 1
///             they share one; copies overlap kernels in both cases.
///     delay:  started --(its duration)--> finished;  record, wait: finished at once.
///
/// Host issue (Application::host_issue = calls): one host thread issues operation i of the
/// issue order at i x host_launch_interval_ns; an operation whose dependencies are done
/// earlier waits for that instant before it starts (queued: every operation is issued at 0).
///
/// Host timeline (Application::host, a HostTimeline): an operation a host call launches also
/// waits for that call (issued: one dependency fewer); the timeline's events are operation
/// events with payloads past the last operation, routed to it.
///
/// Every operation event has Phase::operation and the operation's index as payload. It
/// schedules through the EventScheduler and reads the time from the TimeTeller it is given
/// (once per operation, never per block). A time it computes that would reach 2^63 ps (a
/// delay, a copy, a host issue time, a kernel's arrival) is a TimeRangeError naming the
/// operation (support/checked_time.h).
class OperationFrontEnd final {
public:
    /// Builds the operation graph; InputError when the workload has more operations than an
    /// event payload can name, issues host calls on a GPU without host_launch_interval_ns, or
    /// has copies the GPU's host link cannot carry.
    OperationFrontEnd(const hw::GpuSpec& gpu, const workloads::Application& app, EventScheduler& events,
                      const TimeTeller& clock, const std::vector<SimObserver*>& observers);

    /// At the start of the run: starts every operation without dependencies.
    void start();
    /// An operation event of `op` at now. Returns the launch whose kernel arrived in the
    /// execution-engine queue, if any; the caller makes it ready, then calls start_ready().
    std::optional<std::size_t> on_event(std::size_t op);
    /// Starts every operation that became ready (and those that finish at once, and so on).
    void start_ready();
    /// The last block of launch `launch` ended at now (or its repeated run did): its operation
    /// finishes and what became ready starts.
    void kernel_finished(std::size_t launch);

    /// The operation of launch `launch` (the payload of its operation events).
    [[nodiscard]] std::size_t kernel_op(std::size_t launch) const { return graph_.kernel_op[launch]; }
    /// Where operation `op` was written ("FILE:LINE"; empty for a command-line kernel).
    [[nodiscard]] std::string where(std::size_t op) const { return graph_.listed() ? graph_.listed_op(op).where() : std::string(); }
    /// "operation N (KIND ... on stream S, FILE:LINE)", for messages.
    [[nodiscard]] std::string describe(std::size_t op) const;
    /// Operations started and not finished.
    [[nodiscard]] std::size_t ops_in_flight() const { return ops_in_flight_; }
    /// When the last operation finished.
    [[nodiscard]] Time last_end() const { return last_op_end_; }
    /// The host threads (inactive without Application::host).
    [[nodiscard]] const HostTimeline& host() const { return host_; }

private:
    void start_op(std::size_t op);
    void finish_op(std::size_t op);
    void start_copy(std::size_t op);
    /// Checks the GPU spec can carry the application's copies; sets the copy engines up.
    void prepare_copies(const hw::GpuSpec& gpu);

    EventScheduler& events_;
    const TimeTeller& clock_;
    const std::vector<SimObserver*>& observers_;
    workloads::OperationGraph graph_;
    std::vector<std::uint32_t> unfinished_deps_;  ///< per operation
    std::vector<std::uint8_t> kernel_arrived_;    ///< per launch: its operation event came (ready)
    std::vector<std::size_t> ready_ops_;          ///< operations to start at now
    std::size_t ops_in_flight_ = 0;               ///< started, not finished
    std::vector<std::uint8_t> awaiting_issue_;    ///< per operation: 1 = ready, waiting for the host to issue it
    Time launch_overhead_;                        ///< kernel_launch_ns (graph_kernel_launch_ns for issue: graph)
    Time start_interval_;                         ///< kernel_start_interval_ns (0: no limit)
    Time per_pending_kernel_ = 0;                 ///< issue: graph: graph_launch_per_pending_kernel_ns, else 0
    std::size_t kernels_pending_ = 0;             ///< kernels started, not yet ready
    Time next_arrival_ = 0;                       ///< the earliest the next kernel may be ready
    Time host_interval_ = 0;                      ///< HostIssue::calls: host time per operation, else 0
    Time last_op_end_ = 0;
    std::vector<Time> copy_engine_free_;          ///< per copy engine (lane): when it can take the next copy
    double copy_pinned_ps_per_byte_ = 0;
    double copy_pageable_ps_per_byte_ = 0;
    Time copy_latency_ = 0;
    HostTimeline host_;
    std::vector<std::size_t> issued_;             ///< operations a host event issued
};

}  // namespace gpusched::sim
