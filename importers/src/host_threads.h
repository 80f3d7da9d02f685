// HostThreads: the trace's host threads as workload host timelines: launch and sync calls with their gaps and CPU times.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
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
///
/// A launch's work is submitted as its call returns, unless the trace shows otherwise: where the
/// call's operation started on the GPU before the call returned (a call that went on after its
/// submission), the call gets `submit` = the operation's start less the trace's launch lead, less
/// the call's start (clamped to 0..cpu). The launch lead is the median time from a launch call's
/// return to the start of its operation over the launches that found their stream idle (0 when
/// none did); notes() says how many calls rest on this rule.
class HostThreads {
public:
    HostThreads(std::string path, TraceTime origin) : path_(std::move(path)), origin_(origin) {}

    /// Call `call` (index `index` in ImportedTrace::calls) issues item `item`, an operation that
    /// started on the GPU at `gpu_start` and found its stream idle (`stream_idle`: every earlier
    /// operation there ended before the call did); a graph launch's second and later operations join its call.
    void launch(const HostCall& call, std::uint32_t index, std::size_t item, TraceTime gpu_start, bool stream_idle);
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
    /// A launch call's own times, for the submit rule.
    struct Launch {
        std::int64_t tid = 0;
        std::size_t call = 0;  ///< its index in the thread's timeline
        TraceTime start = 0, end = 0, gpu_start = 0;
        bool stream_idle = false;
    };
    struct Lead {
        TraceTime lead = 0;        ///< the median return-to-start time of launches on an idle stream
        std::size_t idle = 0;      ///< how many such launches
    };
    Thread& thread_of(const HostCall& call, std::uint32_t index);
    [[nodiscard]] Lead launch_lead() const;
    /// `submit` of a launch whose operation started before its call returned; none otherwise.
    [[nodiscard]] std::optional<Time> submit_of(const Launch& l, const Lead& lead) const;

    std::string path_;
    TraceTime origin_;
    std::map<std::int64_t, Thread> threads_;
    std::vector<Launch> launches_;
    std::size_t overlaps_ = 0;
    TraceTime overlap_ = 0;
    std::string first_overlap_;
};

}  // namespace gpusched::importers
