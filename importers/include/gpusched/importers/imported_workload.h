// An import as a workload (the data the workload writer prints, docs/workloads.md "Workload files") and its measured timeline CSV.
#pragma once

#include <ostream>
#include <string>

#include "gpusched/importers/imported_application.h"
#include "gpusched/importers/imported_trace.h"
#include "gpusched/importers/kernel_totals.h"
#include "gpusched/workloads/workload_document.h"

namespace gpusched::importers {

/// Where an import came from, for the file headers.
struct ImportSource {
    std::string tool;    ///< "torch" or "cupti"
    std::string trace;   ///< the trace file as the user named it
    std::string preset;  ///< the GPU preset of measured_gpu
    std::string device;  ///< the trace's device name ("" when deviceProperties lacks it)
    int sm_count = 0;
};

/// Picoseconds as a duration the workload reader takes back exactly: "12.345us", "3us", "0.000001us".
std::string format_us(TraceTime ps);

/// The workload of an import, for workloads::write_workload: top-level `notes` (source, device,
/// steps, counts, stream map, what could not be imported), `description`, `streams` (those whose
/// kernels had a priority other than 0 in the trace, with that integer priority) and `launches`:
/// each kernel as `kernel: kernel` with its full name as its first note (and its cluster shape,
/// not modelled, as a second), name, stream, grid, block, regs, smem/static_smem, measured,
/// measured_gpu; copies as `copy` noting their measured time; memsets and device-to-device copies
/// as `delay` of their measured time; host gaps as `delay`; syncs as `record` / `wait`.
/// Deterministic: the same trace and options give the same document. InputError
/// "TRACE: traceEvents[I]: ..." for a kernel whose shape cannot launch on the preset. With `totals`
/// each kernel also gets `family`, `work_from` and, when known, `flops`, `dtype`, `dram_bytes` and
/// `l2_bytes`, and the top-level notes one line per family and the counted shape notes.
workloads::WorkloadDocument imported_workload(const ImportedTrace& trace, const ImportedApplication& app, const ImportSource& source,
                                              const ImportTotals* totals = nullptr);

/// The measured timeline: one row per kernel launch, in the workload's launch order:
/// kernel,launch,stream,start_ns,end_ns,duration_ns,grid,block with times from the first
/// imported event, after "# key=value" metadata lines (docs/importing.md "Measured timeline").
void write_measured_timeline(std::ostream& out, const ImportedTrace& trace, const ImportedApplication& app,
                             const ImportSource& source);

}  // namespace gpusched::importers
