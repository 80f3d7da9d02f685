// ImportedTrace: what the importer keeps of a profiler trace: GPU operations, host API calls, sync events, step markers.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>


namespace gpusched::importers {

/// Picoseconds on a trace's clock (signed: events may precede the first one read), and durations.
using TraceTime = std::int64_t;

/// One GPU of the trace's deviceProperties.
struct TraceDevice {
    std::int64_t id = 0;
    std::string name;
    int cc_major = 0;
    int cc_minor = 0;
    int sm_count = 0;
    std::uint64_t event_index = 0;  ///< index in deviceProperties
};

/// A kernel, memcpy or memset that ran on the GPU (ph "X", cat kernel / gpu_memcpy / gpu_memset).
struct GpuOp {
    enum class Kind : std::uint8_t { kernel, copy, memset };
    enum class Copy : std::uint8_t { h2d, d2h, d2d, other };
    Kind kind = Kind::kernel;
    Copy copy = Copy::other;        ///< copies: the direction from the name
    bool pageable = false;          ///< copies: "Pageable" in the name
    std::uint32_t name = 0;         ///< index into ImportedTrace::names
    std::int64_t device = 0;
    std::int64_t stream = 0;        ///< the trace's stream handle
    std::int64_t correlation = -1;  ///< links to a HostCall; -1 when absent
    TraceTime start = 0;                 ///< ps on the trace's clock
    TraceTime duration = 0;
    std::array<std::uint32_t, 3> grid{1, 1, 1};
    std::array<std::uint32_t, 3> block{1, 1, 1};
    std::array<std::uint32_t, 3> cluster{0, 0, 0};  ///< 0: not given
    std::uint32_t regs = 0;
    std::int64_t shared = -1;         ///< "shared memory" (static + dynamic), -1 absent
    std::int64_t static_shared = -1;  ///< the recorder's "static shared memory", -1 absent
    std::int64_t dynamic_shared = -1; ///< the recorder's "dynamic shared memory", -1 absent
    std::int32_t stream_priority = 0;
    bool has_priority = false;
    std::uint64_t bytes = 0;          ///< copies and memsets
    std::uint64_t event_index = 0;    ///< index in traceEvents
};

/// A host API call (cat cuda_runtime / cuda_driver) the importer uses.
struct HostCall {
    enum class Kind : std::uint8_t {
        launch,             ///< cudaLaunchKernel, cuLaunchKernel(Ex), cudaGraphLaunch, ...
        async_copy,         ///< cudaMemcpyAsync, cudaMemsetAsync and the like: only issue
        blocking_copy,      ///< cudaMemcpy, cudaMemset without Async: the host waits for its operation
        device_sync,        ///< cudaDeviceSynchronize, cuCtxSynchronize
        stream_sync,        ///< cudaStreamSynchronize, cuStreamSynchronize
        event_sync,         ///< cudaEventSynchronize, cuEventSynchronize
        event_record,       ///< cudaEventRecord(WithFlags), cuEventRecord
        stream_wait_event,  ///< cudaStreamWaitEvent, cuStreamWaitEvent
    };
    Kind kind = Kind::launch;
    std::int64_t correlation = -1;
    std::int64_t tid = 0;           ///< the host thread (the event's integer `tid`; 0 when absent or not an integer)
    TraceTime start = 0;
    TraceTime end = 0;
    std::uint64_t event_index = 0;
};

/// A synchronisation the GPU side reports (cat cuda_sync, PyTorch's enable_cuda_sync_events).
struct SyncEvent {
    enum class Kind : std::uint8_t { stream_wait_event, event_sync, stream_sync, context_sync };
    Kind kind = Kind::stream_wait_event;
    std::int64_t device = 0;
    std::int64_t stream = -1;          ///< the waiting stream (stream_wait_event) or the synchronised one
    std::int64_t wait_on_stream = -1;  ///< the stream the event was recorded on; -1 unknown
    std::int64_t record_correlation = -1;  ///< the cudaEventRecord call's correlation; -1 unknown
    std::int64_t correlation = -1;     ///< the host call that asked for it
    TraceTime start = 0;
    std::uint64_t event_index = 0;
};

/// A ProfilerStep#N marker's host-side span.
struct StepMarker {
    std::int64_t number = 0;
    TraceTime start = 0;
    TraceTime end = 0;
    std::uint64_t event_index = 0;
};

/// The kept part of a trace, compact: memory grows with these records, not with the file.
struct ImportedTrace {
    std::string path;
    std::vector<TraceDevice> devices;
    std::vector<std::string> names;  ///< distinct kernel and copy names, by first appearance
    std::vector<GpuOp> ops;
    std::vector<HostCall> calls;
    std::vector<SyncEvent> syncs;
    std::vector<StepMarker> steps;
    std::string recorder_version;    ///< the gpuschedRecorder object's version, "" when absent
    bool has_recorder = false;
    std::uint64_t event_count = 0;   ///< elements of traceEvents
};

}  // namespace gpusched::importers
