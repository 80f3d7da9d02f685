// The workload YAML and measured timeline CSV of an import, written deterministically from the ImportedApplication.
#include "gpusched/importers/workload_writer.h"

#include <filesystem>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/hw/occupancy.h"
#include "gpusched/importers/kernel_name.h"
#include "gpusched/support/input_error.h"
#include "gpusched/support/time.h"

namespace gpusched::importers {

namespace {

std::string dims(const std::array<std::uint32_t, 3>& d) {
    return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
}

std::string base_name(const std::string& path) { return printable(std::filesystem::path(path).filename().string()); }

/// A double-quoted YAML scalar of printable text.
std::string quoted(const std::string& text) {
    std::string out = "\"";
    for (const char c : printable(text)) {
        if (c == '"' || c == '\\') out.push_back('\\');
        out.push_back(c);
    }
    return out + "\"";
}

std::string plural(std::size_t n, const std::string& one, const std::string& many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

void write_kernel(std::ostream& out, const ImportedTrace& trace, const GpuOp& op, int stream, const ImportSource& source) {
    const std::string& full = trace.names[op.name];
    out << "  # " << printable(full) << "\n";
    if (op.cluster[0] != 0) out << "  # cluster " << dims(op.cluster) << " (not modelled)\n";
    out << "  - kernel: kernel\n"
        << "    name: \"" << sanitize_kernel_name(full) << "\"\n"
        << "    stream: " << stream << "\n"
        << "    grid: " << dims(op.grid) << "\n"
        << "    block: " << dims(op.block) << "\n"
        << "    regs: " << op.regs << "\n";
    if (op.static_shared >= 0 || op.dynamic_shared >= 0) {
        out << "    smem: " << std::max<std::int64_t>(op.dynamic_shared, 0) << "\n"
            << "    static_smem: " << std::max<std::int64_t>(op.static_shared, 0) << "\n";
    } else if (op.shared >= 0) {
        out << "    smem: " << op.shared << "\n";
    }
    out << "    measured: " << format_us(op.duration) << "\n"
        << "    measured_gpu: " << source.preset << "\n";
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
            throw InputError(where + ": cannot launch on " + gpu.name + ": " + e.what());
        }
    }
}

}  // namespace

std::string format_us(TraceTime ps) {
    const bool negative = ps < 0;
    const auto magnitude = static_cast<std::uint64_t>(negative ? -(ps + 1) : ps) + (negative ? 1 : 0);
    std::string fraction = std::to_string(magnitude % 1'000'000);
    fraction.insert(0, 6 - fraction.size(), '0');
    while (!fraction.empty() && fraction.back() == '0') fraction.pop_back();
    return (negative ? "-" : "") + std::to_string(magnitude / 1'000'000) + (fraction.empty() ? "" : "." + fraction) + "us";
}

void write_workload(std::ostream& out, const ImportedTrace& trace, const ImportedApplication& app, const ImportSource& source) {
    check_kernels_launch(trace, app, source);
    out << "# Workload imported by `gpusched import " << source.tool << "` from " << base_name(source.trace)
        << " (docs/importing.md).\n";
    if (!trace.recorder_version.empty()) out << "# recorder: gpusched-record version " << printable(trace.recorder_version) << "\n";
    out << "# device " << app.device << ": " << (source.device.empty() ? "(no deviceProperties)" : printable(source.device));
    if (source.sm_count > 0) out << " (" << source.sm_count << " SMs)";
    out << " -> GPU preset " << source.preset << "\n"
        << "# steps: " << app.steps_text << "\n"
        << "# " << plural(app.kernels, "kernel", "kernels") << ", " << plural(app.copies, "copy", "copies") << ", "
        << plural(app.device_ops, "memset or device copy", "memsets or device copies") << " (as delays), "
        << plural(app.delays, "host gap", "host gaps") << " (as delays), "
        << plural(app.cross_stream_waits, "cross-stream wait", "cross-stream waits") << ", "
        << plural(app.host_syncs, "host synchronisation", "host synchronisations") << "\n";
    for (std::size_t s = 0; s < app.stream_handles.size(); s += 12) {
        out << (s == 0 ? "# trace stream -> workload stream:" : "#  ");
        for (std::size_t k = s; k < std::min(s + 12, app.stream_handles.size()); ++k)
            out << " " << app.stream_handles[k] << "->" << k << (k + 1 < app.stream_handles.size() ? "," : "");
        out << "\n";
    }
    for (const auto& note : app.notes) out << "# note: " << printable(note) << "\n";
    out << "description: " << quoted("imported from " + base_name(source.trace) + " (" + source.tool + ", steps " + app.steps_text + ")")
        << "\n";
    bool any_priority = false;
    for (std::size_t s = 0; s < app.priority.size(); ++s) {
        if (!app.priority[s]) continue;
        if (!any_priority) out << "streams:\n";
        any_priority = true;
        out << "  - {id: " << s << ", priority: " << *app.priority[s] << "}\n";
    }
    out << "launches:\n";
    for (const AppItem& item : app.items) {
        switch (item.kind) {
            case AppItem::Kind::kernel:
                write_kernel(out, trace, trace.ops[item.op], item.stream, source);
                break;
            case AppItem::Kind::copy: {
                const GpuOp& op = trace.ops[item.op];
                out << "  - {copy: " << (op.copy == GpuOp::Copy::h2d ? "h2d" : "d2h") << ", bytes: " << op.bytes
                    << ", memory: " << (op.pageable ? "pageable" : "pinned") << ", stream: " << item.stream << "}  # measured "
                    << format_us(op.duration) << "\n";
                break;
            }
            case AppItem::Kind::device_op: {
                const GpuOp& op = trace.ops[item.op];
                out << "  # " << printable(trace.names[op.name]) << ", " << op.bytes << " bytes: its measured time\n"
                    << "  - {delay: " << format_us(op.duration) << ", stream: " << item.stream << "}\n";
                break;
            }
            case AppItem::Kind::delay:
                out << "  - {delay: " << format_us(item.gap) << ", stream: " << item.stream << "}  # host gap\n";
                break;
            case AppItem::Kind::record:
                out << "  - {record: " << item.event << ", stream: " << item.stream << "}\n";
                break;
            case AppItem::Kind::wait:
                out << "  - {wait: " << item.event << ", stream: " << item.stream << "}\n";
                break;
        }
    }
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
