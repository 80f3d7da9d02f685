// The workload of an import (data for the workload writer) and its measured timeline CSV, deterministic from the ImportedApplication.
#include "gpusched/importers/imported_workload.h"

#include <cstdio>
#include <filesystem>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/hw/occupancy.h"
#include "gpusched/importers/kernel_name.h"
#include "gpusched/support/input_error.h"
#include "gpusched/support/time.h"
#include "gpusched/workloads/workload_writer.h"

namespace gpusched::importers {

namespace {

std::string dims(const std::array<std::uint32_t, 3>& d) {
    return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
}

std::string base_name(const std::string& path) { return printable(std::filesystem::path(path).filename().string()); }

std::string plural(std::size_t n, const std::string& one, const std::string& many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

using workloads::Operation;
using workloads::WorkloadItem;

/// A `kernel: kernel` item: the full name (and a cluster shape) as notes, the launch's shape and measured time as keys.
WorkloadItem kernel_item(const ImportedTrace& trace, const GpuOp& op, int stream, const ImportSource& source) {
    const std::string& full = trace.names[op.name];
    WorkloadItem item;
    item.kernel = "kernel";
    item.notes.push_back(printable(full));
    if (op.cluster[0] != 0) item.notes.push_back("cluster " + dims(op.cluster) + " (not modelled)");
    const auto key = [&](const std::string& name, const std::string& value) { item.keys.push_back({name, value, false, ""}); };
    item.keys.push_back({"name", sanitize_kernel_name(full), true, ""});
    key("stream", std::to_string(stream));
    key("grid", dims(op.grid));
    key("block", dims(op.block));
    key("regs", std::to_string(op.regs));
    if (op.static_shared >= 0 || op.dynamic_shared >= 0) {
        key("smem", std::to_string(std::max<std::int64_t>(op.dynamic_shared, 0)));
        key("static_smem", std::to_string(std::max<std::int64_t>(op.static_shared, 0)));
    } else if (op.shared >= 0) {
        key("smem", std::to_string(op.shared));
    }
    key("measured", format_us(op.duration));
    key("measured_gpu", source.preset);
    return item;
}

/// A count as the workload writes it: a whole number.
std::string whole(double value) {
    char text[40];
    std::snprintf(text, sizeof text, "%.0f", value);
    return text;
}

/// The work keys of a kernel item (docs/importing.md "Work from the trace").
void add_totals(WorkloadItem& item, const KernelTotals& k) {
    const auto key = [&](const std::string& name, const std::string& value) { item.keys.push_back({name, value, false, ""}); };
    key("family", k.family);
    key("work_from", k.work_from);
    if (k.flops) key("flops", whole(*k.flops));
    if (!k.dtype.empty()) key("dtype", k.dtype);
    if (k.dram_bytes) key("dram_bytes", whole(*k.dram_bytes));
    if (k.l2_bytes) key("l2_bytes", whole(*k.l2_bytes));
}

/// A copy, delay, record or wait item on `stream`.
WorkloadItem operation_item(Operation::Kind kind, int stream) {
    WorkloadItem item;
    item.kind = kind;
    item.stream = stream;
    return item;
}

/// "1 host thread with 291 calls": the host timeline's size.
std::string host_text(const std::vector<workloads::HostThread>& host) {
    std::size_t calls = 0;
    for (const auto& t : host) calls += t.calls.size();
    return plural(host.size(), "host thread", "host threads") + " with " + plural(calls, "call", "calls");
}

/// The top-level notes: where the workload came from and what it holds.
std::vector<std::string> header_notes(const ImportedTrace& trace, const ImportedApplication& app, const ImportSource& source) {
    std::vector<std::string> notes{"Workload imported by `gpusched import " + source.tool + "` from " + base_name(source.trace) +
                                   " (docs/importing.md)."};
    if (!trace.recorder_version.empty()) notes.push_back("recorder: gpusched-record version " + printable(trace.recorder_version));
    notes.push_back("device " + std::to_string(app.device) + ": " + (source.device.empty() ? "(no deviceProperties)" : printable(source.device)) +
                    (source.sm_count > 0 ? " (" + std::to_string(source.sm_count) + " SMs)" : "") + " -> GPU preset " + source.preset);
    notes.push_back("steps: " + app.steps_text);
    notes.push_back(plural(app.kernels, "kernel", "kernels") + ", " + plural(app.copies, "copy", "copies") + ", " +
                    plural(app.device_ops, "memset or device copy", "memsets or device copies") + " (as delays), " +
                    (app.host.empty() ? plural(app.delays, "host gap", "host gaps") + " (as delays), " : host_text(app.host) + ", ") +
                    plural(app.cross_stream_waits, "cross-stream wait", "cross-stream waits") + ", " +
                    plural(app.host_syncs, "host synchronisation", "host synchronisations"));
    std::string map = "trace stream -> workload stream:";
    for (std::size_t k = 0; k < app.stream_handles.size(); ++k)
        map += " " + std::to_string(app.stream_handles[k]) + "->" + std::to_string(k) + (k + 1 < app.stream_handles.size() ? "," : "");
    notes.push_back(map);
    for (const auto& note : app.notes) notes.push_back("note: " + printable(note));
    return notes;
}

/// InputError "TRACE: traceEvents[I]: ..." for a kernel whose shape cannot launch on the preset
/// (a corrupt or foreign trace): the workload reader would refuse it later, far from its cause.
void check_kernels_launch(const ImportedTrace& trace, const ImportedApplication& app, const ImportSource& source) {
    const hw::GpuSpec gpu = hw::resolve_gpu(source.preset);
    for (const AppItem& item : app.items) {
        if (item.kind != AppItem::Kind::kernel) continue;
        const GpuOp& op = trace.ops[item.op];
        const std::string where = source.trace + ": traceEvents[" + std::to_string(op.event_index) + "]: kernel '" +
                                  printable(trace.names[op.name]) + "'";
        const std::uint64_t threads = std::uint64_t{op.block[0]} * op.block[1] * op.block[2];
        if (threads > static_cast<std::uint64_t>(gpu.max_threads_per_block))
            throw InputError(where + ": block " + dims(op.block) + " is " + std::to_string(threads) +
                             " threads, over the " + std::to_string(gpu.max_threads_per_block) + " of " + gpu.name);
        hw::OccupancyRequest request;
        request.threads_per_block = static_cast<int>(threads);
        request.registers_per_thread = static_cast<int>(std::min<std::uint32_t>(op.regs, 1u << 20));
        if (op.static_shared >= 0 || op.dynamic_shared >= 0) {
            request.static_shared_bytes = std::max<std::int64_t>(op.static_shared, 0);
            request.dynamic_shared_bytes = std::max<std::int64_t>(op.dynamic_shared, 0);
        } else if (op.shared >= 0) {
            request.dynamic_shared_bytes = op.shared;
        }
        try {
            (void)hw::compute_occupancy(gpu, request);
        } catch (const InputError& e) {
            throw InputError(where + ": " + e.what());
        }
    }
}

}  // namespace

std::string format_us(TraceTime ps) {
    if (ps >= 0) return workloads::exact_microseconds(static_cast<Time>(ps));
    return "-" + workloads::exact_microseconds(static_cast<Time>(-(ps + 1)) + 1);
}

workloads::WorkloadDocument imported_workload(const ImportedTrace& trace, const ImportedApplication& app, const ImportSource& source,
                                              const ImportTotals* totals) {
    check_kernels_launch(trace, app, source);
    workloads::WorkloadDocument document;
    document.notes = header_notes(trace, app, source);
    if (totals != nullptr) {
        for (const auto& line : family_summary_lines(*totals)) document.notes.push_back(line);
        for (const auto& note : totals->notes) document.notes.push_back("note: " + note);
    }
    document.description = "imported from " + base_name(source.trace) + " (" + source.tool + ", steps " + app.steps_text + ")";
    for (std::size_t s = 0; s < app.priority.size(); ++s) {
        if (!app.priority[s]) continue;
        workloads::StreamConfig stream;
        stream.id = static_cast<int>(s);
        stream.priority = workloads::StreamPriority::cuda(*app.priority[s]);
        document.streams.push_back(stream);
    }
    for (const AppItem& item : app.items) {
        switch (item.kind) {
            case AppItem::Kind::kernel:
                document.items.push_back(kernel_item(trace, trace.ops[item.op], item.stream, source));
                if (totals != nullptr && totals->by_op[item.op]) add_totals(document.items.back(), *totals->by_op[item.op]);
                break;
            case AppItem::Kind::copy: {
                const GpuOp& op = trace.ops[item.op];
                WorkloadItem copy = operation_item(Operation::Kind::copy, item.stream);
                copy.copy.direction = op.copy == GpuOp::Copy::h2d ? workloads::CopyDirection::host_to_device
                                                                  : workloads::CopyDirection::device_to_host;
                copy.copy.bytes = op.bytes;
                copy.copy.pinned = !op.pageable;
                copy.notes.push_back("measured " + format_us(op.duration));
                document.items.push_back(std::move(copy));
                break;
            }
            case AppItem::Kind::device_op: {
                const GpuOp& op = trace.ops[item.op];
                WorkloadItem delay = operation_item(Operation::Kind::delay, item.stream);
                delay.delay = static_cast<Time>(std::max<TraceTime>(op.duration, 0));
                delay.notes.push_back(printable(trace.names[op.name]) + ", " + std::to_string(op.bytes) + " bytes: its measured time");
                document.items.push_back(std::move(delay));
                break;
            }
            case AppItem::Kind::delay: {
                WorkloadItem delay = operation_item(Operation::Kind::delay, item.stream);
                delay.delay = static_cast<Time>(std::max<TraceTime>(item.gap, 0));
                delay.notes.push_back("host gap");
                document.items.push_back(std::move(delay));
                break;
            }
            case AppItem::Kind::record:
            case AppItem::Kind::wait: {
                WorkloadItem event = operation_item(item.kind == AppItem::Kind::record ? Operation::Kind::record : Operation::Kind::wait,
                                                    item.stream);
                event.event = item.event;
                document.items.push_back(std::move(event));
                break;
            }
        }
    }
    document.host = app.host;
    return document;
}

void write_measured_timeline(std::ostream& out, const ImportedTrace& trace, const ImportedApplication& app,
                             const ImportSource& source) {
    out << "# gpusched measured kernels\n"
        << "# source=" << source.tool << "\n"
        << "# trace=" << base_name(source.trace) << "\n"
        << "# device=" << printable(source.device) << "\n"
        << "# gpu=" << source.preset << "\n";
    if (source.sm_count > 0) out << "# sm_count=" << source.sm_count << "\n";
    out << "# steps=" << app.steps_text << "\n"
        << "# times=ns after the first imported event (host call or GPU start)\n"
        << "kernel,launch,stream,start_ns,end_ns,duration_ns,grid,block\n";
    std::size_t launch = 0;
    for (const AppItem& item : app.items) {
        if (item.kind != AppItem::Kind::kernel) continue;
        const GpuOp& op = trace.ops[item.op];
        const TraceTime start = op.start - app.origin;
        out << sanitize_kernel_name(trace.names[op.name]) << "," << launch++ << "," << item.stream << "," << format_ns(static_cast<Time>(start)) << ","
            << format_ns(static_cast<Time>(start + op.duration)) << "," << format_ns(static_cast<Time>(op.duration)) << "," << dims(op.grid) << "," << dims(op.block) << "\n";
    }
}

}  // namespace gpusched::importers
