// HostThreads: the trace's host threads as workload host timelines: launch and sync calls with their gaps and CPU times.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "gpusched/importers/imported_trace.h"
#include "gpusched/workloads/host_timeline.h"

namespace gpusched::importers {

/// Collects each thread's calls in host order (docs/importing.md "Host timeline"): a call's gap
/// is its start less the end of the thread's previous kept call (time 0 of the workload for the
/// first), its cpu the call's duration; a sync's cpu is its time after the GPU work it waited
/// for ended. A call that starts before the previous call of its thread ended starts, in the
/// timeline, when that one ended; notes() counts them and the time they overlapped.
class HostThreads {
public:
    HostThreads(std::string path, TraceTime origin) : path_(std::move(path)), origin_(origin) {}

    /// Call `call` (index `index` in ImportedTrace::calls) issues item `item`; a graph launch's
    /// second and later operations join its call.
    void launch(const HostCall& call, std::uint32_t index, std::size_t item);
    /// A synchronisation of `stream` (-1: device) by `call`, whose awaited GPU work ended at `gpu_done`.
    void sync(const HostCall& call, std::uint32_t index, int stream, TraceTime gpu_done);

    /// The threads, in order of their first call.
    [[nodiscard]] std::vector<workloads::HostThread> threads() const;
    /// What the timeline changed: overlapping calls and the time they overlapped.
    [[nodiscard]] std::vector<std::string> notes() const;

private:
    struct Thread {
        workloads::HostThread timeline;
        TraceTime last_end = 0;
        std::int64_t last_call = -1;   ///< index of the last call kept
        std::uint64_t last_event = 0;  ///< its event index
        std::size_t order = 0;
    };
    Thread& thread_of(const HostCall& call, std::uint32_t index);

    std::string path_;
    TraceTime origin_;
    std::map<std::int64_t, Thread> threads_;
    std::size_t overlaps_ = 0;
    TraceTime overlap_ = 0;
    std::string first_overlap_;
};

}  // namespace gpusched::importers
