// Application: kernel launches, copies, host delays and events on streams, as the host issues them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpusched/support/time.h"
#include "gpusched/workloads/kernel_launch.h"

namespace gpusched::workloads {

/// Stream priority levels (CUDA exposes two on most GPUs: greatest and least).
enum class StreamPriority { normal = 0, high = 1 };

/// One stream: FIFO order of its launches, a priority, and an optional SM mask
/// (spatial partitioning: its blocks run only on the listed SMs; empty = all SMs).
struct StreamConfig {
    int id = 0;
    StreamPriority priority = StreamPriority::normal;
    std::vector<int> sm_mask;
};

enum class CopyDirection { host_to_device, device_to_host };

/// A host-device transfer: latency + bytes / bandwidth on a copy engine (DESIGN.md 2.3).
struct CopyOp {
    CopyDirection direction = CopyDirection::host_to_device;
    std::uint64_t bytes = 0;
    bool pinned = true;  ///< page-locked host memory (else pageable: the spec's pageable bandwidth)
};

/// One operation of the application's DAG. Operations on one stream run in issue order;
/// `record`/`wait` pairs and `after` add edges across streams.
struct Operation {
    enum class Kind { kernel, copy, delay, record, wait };
    Kind kind = Kind::kernel;
    int stream = 0;
    std::size_t launch = 0;    ///< kernel: index into Application::launches
    CopyOp copy;               ///< copy
    Time delay = 0;            ///< delay: the stream waits this long (host work between calls)
    std::string event;         ///< record / wait: the event's name
    std::string id;            ///< optional name other operations' `after` may refer to
    std::vector<std::string> after;  ///< ids of operations that must finish first (any stream)
    std::string where;         ///< where it was written ("FILE:LINE"), for messages
};

/// How the host issues an application's operations.
enum class HostIssue {
    queued,  ///< all enqueued before the GPU needs them (a CUDA graph, or a host far ahead): no host cost
    calls,   ///< one host thread, one API call per operation in issue order: operation i cannot
             ///< start before i x the GPU spec's overheads.host_launch_interval_ns
};

/// Launches (and other operations) in host issue order. Operations on the same stream run
/// in that order; on different streams they may overlap. Streams not listed in `streams` are
/// normal-priority, unmasked.
struct Application {
    std::string description;  ///< what this is, for summaries ("synthetic:blocks=265,...")
    std::vector<StreamConfig> streams;
    std::vector<KernelLaunch> launches;
    /// Every operation in issue order, each kernel one entry referring to `launches`. Empty
    /// means "the launches in order, each on its own stream": see issue_order().
    std::vector<Operation> operations;
    HostIssue host_issue = HostIssue::queued;

    /// `operations`, or one kernel operation per launch when it is empty.
    [[nodiscard]] std::vector<Operation> issue_order() const {
        if (!operations.empty()) return operations;
        std::vector<Operation> ops(launches.size());
        for (std::size_t i = 0; i < launches.size(); ++i) {
            ops[i].launch = i;
            ops[i].stream = launches[i].stream;
        }
        return ops;
    }

    /// The configuration of stream `id` (a default one if not listed).
    [[nodiscard]] StreamConfig stream(int id) const {
        for (const auto& s : streams)
            if (s.id == id) return s;
        StreamConfig s;
        s.id = id;
        return s;
    }
};

}  // namespace gpusched::workloads
