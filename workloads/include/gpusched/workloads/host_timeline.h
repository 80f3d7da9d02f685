// The host timeline of a workload: each host thread's runtime API calls (launches, synchronisations) with their CPU times.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/support/time.h"

namespace gpusched::workloads {

/// One runtime API call of a host thread (docs/workloads.md "Host timeline").
///
/// A call starts `gap` after the previous call of its thread ended (the first at `gap` after 0)
/// and takes `cpu`. A launch issues its operations as it returns (its start + cpu), or `submit` into the
/// call where the trace shows the runtime submitted them before the call returned; a sync (cudaStreamSynchronize,
/// cudaDeviceSynchronize, a blocking copy's wait) ends `cpu` after the later of its start and
/// the end of every operation already issued on the stream it names (on every stream: device).
struct HostCall {
    enum class Kind : std::uint8_t { launch, sync };
    Kind kind = Kind::launch;
    /// launch: the items it issues (indices into `launches` in a document, into the
    /// application's operations once built); several for a CUDA graph launch, in GPU order.
    std::vector<std::size_t> ops;
    int stream = -1;  ///< sync: the stream it waits for; -1: every stream (the device)
    Time gap = 0;     ///< CPU time from the previous call's end to this call's start
    Time cpu = 0;     ///< launch: the call's CPU time; sync: its CPU time after the work it waited for ended
    /// launch: the work is submitted this far into the call (0..cpu); absent: as the call returns
    std::optional<Time> submit;
    std::string where;  ///< "FILE:LINE", for messages; not compared
    /// A workload's `iterations`: the iteration the call belongs to (0 in a document). A call of iteration
    /// r > 0 starts only once every thread has ended its calls of iteration r - 1: the threads of one
    /// training step finish before the next step's begin (the trace records no other tie between them).
    std::uint32_t round = 0;

    friend bool operator==(const HostCall& a, const HostCall& b) {
        return a.kind == b.kind && a.ops == b.ops && a.stream == b.stream && a.gap == b.gap && a.cpu == b.cpu &&
               a.submit == b.submit && a.round == b.round;
    }
};

/// One host thread: its calls in order.
struct HostThread {
    std::string name;  ///< the trace's thread id, or any label
    std::vector<HostCall> calls;
    std::string where;  ///< not compared

    friend bool operator==(const HostThread& a, const HostThread& b) { return a.name == b.name && a.calls == b.calls; }
};

}  // namespace gpusched::workloads
