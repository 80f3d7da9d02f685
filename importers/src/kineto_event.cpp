// TraceBuilder: which Kineto events the importer keeps (kernels, copies, memsets, host calls, syncs, steps) and their checks.
#include "gpusched/importers/kineto_event.h"

#include <string_view>

#include "gpusched/support/checked_time.h"
#include "gpusched/support/input_error.h"

namespace gpusched::importers {

namespace {

constexpr std::int64_t kMaxGridDim = 2'147'483'647;
constexpr std::int64_t kMaxGridBlocks = std::int64_t{1} << 40;
constexpr std::int64_t kMaxBlockThreads = std::int64_t{1} << 20;
constexpr std::int64_t kMaxRegisters = 65536;
constexpr std::int64_t kMaxSharedBytes = std::int64_t{1} << 40;
constexpr std::int64_t kMaxCopyBytes = std::int64_t{1} << 50;

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

std::optional<HostCall::Kind> host_call_kind(std::string_view name) {
    using K = HostCall::Kind;
    for (const std::string_view prefix : {"cudaLaunch", "cuLaunch", "cudaGraphLaunch", "cuGraphLaunch"})
        if (starts_with(name, prefix)) return K::launch;
    for (const std::string_view prefix : {"cudaMemcpy", "cuMemcpy", "cudaMemset", "cuMemset"})
        if (starts_with(name, prefix)) return name.find("Async") != std::string_view::npos ? K::async_copy : K::blocking_copy;
    if (starts_with(name, "cudaDeviceSynchronize") || starts_with(name, "cuCtxSynchronize")) return K::device_sync;
    if (starts_with(name, "cudaStreamSynchronize") || starts_with(name, "cuStreamSynchronize")) return K::stream_sync;
    if (starts_with(name, "cudaEventSynchronize") || starts_with(name, "cuEventSynchronize")) return K::event_sync;
    if (starts_with(name, "cudaEventRecord") || starts_with(name, "cuEventRecord")) return K::event_record;
    if (starts_with(name, "cudaStreamWaitEvent") || starts_with(name, "cuStreamWaitEvent")) return K::stream_wait_event;
    return std::nullopt;
}

}  // namespace

void PendingEvent::reset() {
    ph.clear();
    cat.clear();
    name.clear();
    ts.reset();
    dur.reset();
    tid.reset();
    device.reset();
    stream.reset();
    correlation.reset();
    regs.reset();
    shared.reset();
    static_shared.reset();
    dynamic_shared.reset();
    priority.reset();
    bytes.reset();
    wait_on_stream.reset();
    record_correlation.reset();
    grid_size = block_size = cluster_size = -1;
}

std::string TraceBuilder::where(std::uint64_t index) const {
    return trace_.path + ": traceEvents[" + std::to_string(index) + "]";
}

std::uint32_t TraceBuilder::intern(const std::string& name) {
    const auto [it, added] = name_ids_.try_emplace(name, static_cast<std::uint32_t>(trace_.names.size()));
    if (added) trace_.names.push_back(name);
    return it->second;
}

void TraceBuilder::count_kept(std::uint64_t index) {
    if (++kept_ > limits_.max_kept)
        throw InputError(where(index) + ": more than " + std::to_string(limits_.max_kept) +
                         " GPU operations, host calls and markers to keep (the importer's cap; profile fewer steps)");
}

void TraceBuilder::finish_event(const PendingEvent& e, std::uint64_t index) {
    if (e.ph != "X") return;
    if (e.cat == "kernel") return keep_gpu_op(e, index, GpuOp::Kind::kernel);
    if (e.cat == "gpu_memcpy") return keep_gpu_op(e, index, GpuOp::Kind::copy);
    if (e.cat == "gpu_memset") return keep_gpu_op(e, index, GpuOp::Kind::memset);
    if (e.cat == "cuda_runtime" || e.cat == "cuda_driver") return keep_host_call(e, index);
    if (e.cat == "cuda_sync") return keep_sync(e, index);
    if ((e.cat == "user_annotation" || e.cat == "cpu_op" || e.cat == "python_function") && starts_with(e.name, "ProfilerStep#"))
        return keep_step(e, index);
}

void TraceBuilder::keep_gpu_op(const PendingEvent& e, std::uint64_t index, GpuOp::Kind kind) {
    const char* what = kind == GpuOp::Kind::kernel ? "kernel" : kind == GpuOp::Kind::copy ? "memcpy" : "memset";
    const auto fail = [&](const std::string& detail) -> void {
        throw InputError(where(index) + ": " + what + " event '" + e.name.substr(0, 80) + "': " + detail);
    };
    if (e.name.empty()) fail("missing 'name'");
    if (!e.ts) fail("missing 'ts'");
    if (!e.dur) fail("missing 'dur'");
    if (*e.dur < 0) fail("negative 'dur'");
    if (!time_sum(*e.ts < 0 ? 0 : *e.ts, *e.dur)) fail("'ts' + 'dur' passes " + time_limit_text());
    if (!e.stream) fail("missing 'args.stream'");
    GpuOp op;
    op.kind = kind;
    op.name = intern(e.name);
    op.device = e.device.value_or(0);
    op.stream = *e.stream;
    op.correlation = e.correlation.value_or(-1);
    op.start = *e.ts;
    op.duration = *e.dur;
    op.event_index = index;
    if (kind == GpuOp::Kind::kernel) {
        if (e.grid_size != 3) fail("'args.grid' must be [x, y, z]");
        if (e.block_size != 3) fail("'args.block' must be [x, y, z]");
        std::int64_t blocks = 1, threads = 1;
        for (int d = 0; d < 3; ++d) {
            if (e.grid[d] < 1 || e.grid[d] > kMaxGridDim) fail("'args.grid' value " + std::to_string(e.grid[d]) + " is outside 1..2147483647");
            if (e.block[d] < 1 || e.block[d] > kMaxBlockThreads) fail("'args.block' value " + std::to_string(e.block[d]) + " is outside 1..1048576");
            op.grid[d] = static_cast<std::uint32_t>(e.grid[d]);
            op.block[d] = static_cast<std::uint32_t>(e.block[d]);
            if (__builtin_mul_overflow(blocks, e.grid[d], &blocks) || blocks > kMaxGridBlocks) fail("'args.grid' has more than 2^40 blocks");
            threads *= e.block[d];
            if (threads > kMaxBlockThreads) fail("'args.block' has more than 2^20 threads");
        }
        if (e.cluster_size >= 0) {
            if (e.cluster_size != 3) fail("'args.cluster' must be [x, y, z]");
            for (int d = 0; d < 3; ++d) {
                if (e.cluster[d] < 0 || e.cluster[d] > 1024) fail("'args.cluster' value " + std::to_string(e.cluster[d]) + " is outside 0..1024");
                op.cluster[d] = static_cast<std::uint32_t>(e.cluster[d]);
            }
        }
        const std::int64_t regs = e.regs.value_or(0);
        if (regs < 0 || regs > kMaxRegisters) fail("'args.registers per thread' " + std::to_string(regs) + " is outside 0..65536");
        op.regs = static_cast<std::uint32_t>(regs);
        const auto shared = [&](const std::optional<std::int64_t>& value, const char* key) -> std::int64_t {
            if (!value) return -1;
            if (*value < 0 || *value > kMaxSharedBytes) fail(std::string("'args.") + key + "' " + std::to_string(*value) + " is outside 0..2^40");
            return *value;
        };
        op.shared = shared(e.shared, "shared memory");
        op.static_shared = shared(e.static_shared, "static shared memory");
        op.dynamic_shared = shared(e.dynamic_shared, "dynamic shared memory");
        if (e.priority) {
            if (*e.priority < -1024 || *e.priority > 1024) fail("'args.stream priority' (or 'args.priority') " + std::to_string(*e.priority) + " is outside -1024..1024");
            op.stream_priority = static_cast<std::int32_t>(*e.priority);
            op.has_priority = true;
        }
    } else {
        if (kind == GpuOp::Kind::copy && !e.bytes) fail("missing 'args.bytes'");
        const std::int64_t bytes = e.bytes.value_or(0);
        if (bytes < 0 || bytes > kMaxCopyBytes) fail("'args.bytes' " + std::to_string(bytes) + " is outside 0..2^50");
        op.bytes = static_cast<std::uint64_t>(bytes);
        if (kind == GpuOp::Kind::copy) {
            const std::string_view name = e.name;
            op.copy = name.find("HtoD") != std::string_view::npos   ? GpuOp::Copy::h2d
                      : name.find("DtoH") != std::string_view::npos ? GpuOp::Copy::d2h
                      : name.find("DtoD") != std::string_view::npos ? GpuOp::Copy::d2d
                                                                    : GpuOp::Copy::other;
            op.pageable = name.find("Pageable") != std::string_view::npos;
        }
    }
    count_kept(index);
    trace_.ops.push_back(op);
}

void TraceBuilder::keep_host_call(const PendingEvent& e, std::uint64_t index) {
    const auto kind = host_call_kind(e.name);
    if (!kind) return;
    const auto fail = [&](const std::string& detail) -> void {
        throw InputError(where(index) + ": host call '" + e.name.substr(0, 80) + "': " + detail);
    };
    if (!e.ts) fail("missing 'ts'");
    if (!e.dur) fail("missing 'dur'");
    if (*e.dur < 0) fail("negative 'dur'");
    if (!time_sum(*e.ts < 0 ? 0 : *e.ts, *e.dur)) fail("'ts' + 'dur' passes " + time_limit_text());
    HostCall call;
    call.kind = *kind;
    call.correlation = e.correlation.value_or(-1);
    call.tid = e.tid.value_or(0);
    call.start = *e.ts;
    call.end = *e.ts + *e.dur;
    call.event_index = index;
    count_kept(index);
    trace_.calls.push_back(call);
}

void TraceBuilder::keep_sync(const PendingEvent& e, std::uint64_t index) {
    SyncEvent sync;
    if (e.name == "Stream Wait Event") sync.kind = SyncEvent::Kind::stream_wait_event;
    else if (e.name == "Event Sync") sync.kind = SyncEvent::Kind::event_sync;
    else if (e.name == "Stream Sync") sync.kind = SyncEvent::Kind::stream_sync;
    else if (e.name == "Context Sync") sync.kind = SyncEvent::Kind::context_sync;
    else return;
    if (!e.ts) throw InputError(where(index) + ": sync event '" + e.name + "': missing 'ts'");
    sync.device = e.device.value_or(0);
    sync.stream = e.stream.value_or(-1);
    sync.wait_on_stream = e.wait_on_stream.value_or(-1);
    sync.record_correlation = e.record_correlation.value_or(-1);
    sync.correlation = e.correlation.value_or(-1);
    sync.start = *e.ts;
    sync.event_index = index;
    count_kept(index);
    trace_.syncs.push_back(sync);
}

void TraceBuilder::keep_step(const PendingEvent& e, std::uint64_t index) {
    const std::string_view digits = std::string_view(e.name).substr(13);
    std::int64_t number = 0;
    if (digits.empty() || digits.size() > 12) throw InputError(where(index) + ": step marker '" + e.name.substr(0, 80) + "': expected ProfilerStep#N with N 0..10^12");
    for (const char c : digits) {
        if (c < '0' || c > '9') throw InputError(where(index) + ": step marker '" + e.name.substr(0, 80) + "': expected ProfilerStep#N with N 0..10^12");
        number = number * 10 + (c - '0');
    }
    if (!e.ts || !e.dur || *e.dur < 0) throw InputError(where(index) + ": step marker '" + e.name + "': needs 'ts' and a non-negative 'dur'");
    if (!time_sum(*e.ts < 0 ? 0 : *e.ts, *e.dur)) throw InputError(where(index) + ": step marker '" + e.name + "': 'ts' + 'dur' passes " + time_limit_text());
    count_kept(index);
    trace_.steps.push_back({number, *e.ts, *e.ts + *e.dur, index});
}

}  // namespace gpusched::importers
