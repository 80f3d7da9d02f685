// PendingEvent and TraceBuilder: one trace event's fields as the parser meets them, and the rules that keep or drop it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

#include "gpusched/importers/imported_trace.h"

namespace gpusched::importers {

/// The fields of one traceEvents element the importer reads; reset before each event.
struct PendingEvent {
    std::string ph, cat, name;
    std::optional<TraceTime> ts, dur;  ///< ps (the trace's microseconds, exactly)
    std::optional<std::int64_t> tid;   ///< the event's thread, when an integer
    std::optional<std::int64_t> device, stream, correlation, regs, shared, static_shared, dynamic_shared, priority,
        bytes, wait_on_stream, record_correlation;
    std::array<std::int64_t, 3> grid{}, block{}, cluster{};
    int grid_size = -1, block_size = -1, cluster_size = -1;  ///< elements given; -1 absent

    void reset();
};

/// Limits on what a trace may hold (docs/importing.md "Limits").
struct TraceLimits {
    std::uint64_t max_events = 50'000'000;  ///< elements of traceEvents
    std::uint64_t max_kept = 20'000'000;    ///< GPU operations + host calls + sync events + steps kept
};

/// Turns finished events into ImportedTrace records. Every refused event is an InputError
/// "PATH: traceEvents[I]: ..." naming the field.
class TraceBuilder {
public:
    TraceBuilder(ImportedTrace& trace, const TraceLimits& limits) : trace_(trace), limits_(limits) {}

    /// Keeps the event (a GPU operation, a host call the importer uses, a sync event, a
    /// ProfilerStep#N marker) or drops it.
    void finish_event(const PendingEvent& event, std::uint64_t index);

    /// "PATH: traceEvents[I]" for messages.
    [[nodiscard]] std::string where(std::uint64_t index) const;

private:
    void keep_gpu_op(const PendingEvent& e, std::uint64_t index, GpuOp::Kind kind);
    void keep_host_call(const PendingEvent& e, std::uint64_t index);
    void keep_sync(const PendingEvent& e, std::uint64_t index);
    void keep_step(const PendingEvent& e, std::uint64_t index);
    void count_kept(std::uint64_t index);
    std::uint32_t intern(const std::string& name);

    ImportedTrace& trace_;
    TraceLimits limits_;
    std::unordered_map<std::string, std::uint32_t> name_ids_;
    std::uint64_t kept_ = 0;
};

}  // namespace gpusched::importers
