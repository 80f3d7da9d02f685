// import_trace: a Kineto/CUPTI trace file to a workload document, its GPU preset chosen, kernel work estimated (the one import path).
#pragma once

#include <string>

#include "gpusched/importers/imported_application.h"
#include "gpusched/importers/imported_trace.h"
#include "gpusched/importers/imported_workload.h"
#include "gpusched/importers/kernel_totals.h"
#include "gpusched/workloads/workload_document.h"

namespace gpusched::importers {

/// What an import made: the trace as read, the application built from it, where it came from, the kernels'
/// estimated work (families, shapes, rules) and the workload document (write it with workloads::write_workload).
struct TraceImport {
    ImportedTrace trace;
    ImportedApplication app;
    ImportSource source;
    ImportTotals totals;
    workloads::WorkloadDocument document;
};

/// Reads `path` (read_kineto_trace), builds its application with `options`, takes `preset` as the GPU
/// it ran on (empty: the preset matching the trace's device, preset_for_device), estimates the kernels'
/// work on that preset (estimate_kernel_totals with the trace's operator shapes) and makes the document
/// (imported_workload). `tool` ("torch", "cupti") labels the source. The document is not engine-calibrated:
/// sim::write_engine_calibrations does that (gpusched import and the Python module both call it next).
///
/// Errors: an unknown `preset` is a KeyError on key "gpu" listing the presets; a trace whose device
/// is missing or matches no preset is an InputError naming the file and the device, ending with
/// "; give " + `gpu_hint` (how the caller's user names a preset: "--gpu PRESET", "gpu=PRESET").
TraceImport import_trace(const std::string& path, const ImportOptions& options, const std::string& preset,
                         const std::string& tool, const std::string& gpu_hint);

}  // namespace gpusched::importers
