// A profiled step of a Kineto trace as measured and as simulated: kernel intervals, busy time, the imported workload.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "gpusched/hw/gpu_spec.h"
#include "gpusched/importers/imported_application.h"
#include "gpusched/importers/imported_trace.h"
#include "gpusched/workloads/application.h"

namespace gpusched::validation {

/// One launch's interval of a run, in us.
struct Interval {
    std::string name;
    double start = 0;
    double end = 0;
};

/// The traces of `dir` named `<workload>_k<K>.json.gz`: workload -> {K: path} (empty when there are none);
/// InputError naming `dir` when it cannot be listed.
std::map<std::string, std::map<int, std::string>> workload_traces(const std::string& dir);

/// The union of the intervals' lengths (the GPU's busy time), in us.
double busy_time(std::vector<Interval> intervals);

/// Import options that take profiled step `step` only.
importers::ImportOptions step_options(int step);

/// The kernels of the imported step of a measured trace, in issue order.
std::vector<Interval> measured_kernels(const importers::ImportedTrace& trace, const importers::ImportedApplication& app);

/// The imported workload of a trace (as `gpusched import torch` writes it, measured on `preset`: kernel
/// families and their work from the trace's shapes or the documented rules),
/// joined with the Nsight Compute CSV `ncu_csv` when that names an existing file ("" = trace only).
workloads::Application import_workload(const importers::ImportedTrace& trace, const importers::ImportedApplication& app,
                                       const std::string& preset, const std::string& ncu_csv);

/// Where a simulated run's span went (sim/output/gpu_idle_split.h), in us: the GPU busy, idle in launch
/// overhead, idle with no kernel on its way (host-bound), and the host threads' time blocked in syncs.
struct SimulatedSplit {
    double busy_us = 0;
    double launch_overhead_us = 0;
    double host_bound_us = 0;
    double sync_wait_us = 0;
};

/// Every launch of `app` simulated on `gpu` with the named policy and execution model, in launch order;
/// `split`, when given, gets where the run's span went.
std::vector<Interval> simulated_kernels(const workloads::Application& app, const hw::GpuSpec& gpu,
                                        const std::string& policy_name, const std::string& execution,
                                        SimulatedSplit* split = nullptr);

/// The GPU preset of the device that ran the imported step's kernels; InputError naming `trace.path`
/// when the trace has no deviceProperties for it or no preset matches.
std::string trace_preset(const importers::ImportedTrace& trace, const importers::ImportedApplication& app);

}  // namespace gpusched::validation
