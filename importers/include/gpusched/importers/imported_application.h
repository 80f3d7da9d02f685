// ImportedApplication: a trace's GPU operations in host issue order on dense streams, with the syncs and host gaps between them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/importers/imported_trace.h"
#include "gpusched/workloads/host_timeline.h"

namespace gpusched::importers {

/// Which ProfilerStep#N markers to import: all of the trace, or steps first..last.
struct StepRange {
    bool all = true;
    std::int64_t first = 0;
    std::int64_t last = 0;
};

/// The choices of one import (docs/importing.md "Mapping rules").
struct ImportOptions {
    StepRange steps;
    std::optional<std::int64_t> device;  ///< deviceProperties id / args.device; default: the only one with GPU work
    TraceTime min_delay = 1'000'000;          ///< frozen_gaps: host gaps shorter than this (ps) are not written as delays
    /// The host's gaps as `delay` items on the GPU side and its syncs as records and waits (the
    /// old import); default: a host timeline of each thread's calls (`host`).
    bool frozen_gaps = false;
};

/// One item of the workload's `launches`, in order.
struct AppItem {
    enum class Kind : std::uint8_t {
        kernel,     ///< `kernel: kernel` of ImportedTrace::ops[op]
        copy,       ///< `copy: h2d|d2h` of ops[op]
        device_op,  ///< a memset or device-to-device copy, ops[op]: `delay:` of its measured time
        delay,      ///< a host gap: `delay: gap`
        record,     ///< `record: event`
        wait,       ///< `wait: event`
    };
    Kind kind = Kind::kernel;
    int stream = 0;  ///< the workload stream
    std::uint32_t op = 0;
    TraceTime gap = 0;
    std::string event;
};

/// What `gpusched import` turns into a workload file and a measured timeline.
struct ImportedApplication {
    std::vector<AppItem> items;
    std::vector<std::int64_t> stream_handles;  ///< workload stream id -> the trace's stream handle
    /// Per workload stream: the priority its kernels had in the trace (CUDA's numbers, the
    /// greatest when they differ), when one had a priority other than 0; nullopt otherwise.
    std::vector<std::optional<int>> priority;
    std::int64_t device = 0;
    TraceTime origin = 0;         ///< time 0 of the workload on the trace's clock: the first imported event
    std::string steps_text;  ///< "all" or "2-3 of ProfilerStep#1..#5"
    std::size_t kernels = 0, copies = 0, device_ops = 0, delays = 0, cross_stream_waits = 0, host_syncs = 0;
    std::vector<std::string> notes;  ///< what could not be imported, for the file's header and stderr
    /// The host threads' calls (items by index into `items`); empty with frozen_gaps.
    std::vector<workloads::HostThread> host;
};

/// Orders the trace's GPU operations of one device by the host call that issued them (the
/// runtime call of the same correlation; its GPU start for an operation without one), keeps
/// the selected steps, maps stream handles to 0..1023 in order of first appearance, and adds
/// records and waits for cuda_sync "Stream Wait Event"s and host synchronisations, and delays
/// for host gaps of at least min_delay. Errors are InputError "PATH: ...": no GPU work, several
/// devices without a choice, an unknown step or device, more than 1024 streams or 1000000
/// kernels, operations of one stream that start on the GPU out of their issue order.
ImportedApplication build_application(const ImportedTrace& trace, const ImportOptions& options);

}  // namespace gpusched::importers
