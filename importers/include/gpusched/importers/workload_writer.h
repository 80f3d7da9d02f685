// Writing an ImportedApplication as a workload YAML file (docs/workloads.md "Workload files") and its measured timeline CSV.
#pragma once

#include <ostream>
#include <string>

#include "gpusched/importers/imported_application.h"
#include "gpusched/importers/imported_trace.h"

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

/// The workload YAML: a header of comments (source, device, steps, counts, stream map,
/// notes), `description`, `streams` (those whose kernels had a priority other than 0 in the
/// trace, with that integer priority) and `launches`:
/// each kernel as `kernel: kernel` with grid, block, regs, smem/static_smem, stream, name
/// (its full name in the comment line above it), measured, measured_gpu; copies as `copy`;
/// memsets and device-to-device copies as `delay` of their measured time; host gaps as
/// `delay`; syncs as `record` / `wait`. Deterministic: the same trace and options give the
/// same bytes.
void write_workload(std::ostream& out, const ImportedTrace& trace, const ImportedApplication& app, const ImportSource& source);

/// The measured timeline: one row per kernel launch, in the workload's launch order:
/// kernel,launch,stream,start_ns,end_ns,duration_ns,grid,block with times from the first
/// imported event, after "# key=value" metadata lines (docs/importing.md "Measured timeline").
void write_measured_timeline(std::ostream& out, const ImportedTrace& trace, const ImportedApplication& app,
                             const ImportSource& source);

}  // namespace gpusched::importers
