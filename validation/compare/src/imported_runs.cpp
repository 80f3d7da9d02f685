// Measured and simulated kernel intervals of an imported Kineto step, shared by the trace-driven experiments.
#include "imported_runs.h"

#include <algorithm>
#include <filesystem>
#include <regex>

#include "gpusched/importers/device_preset.h"
#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/importers/imported_workload.h"
#include "gpusched/importers/kernel_totals.h"
#include "gpusched/importers/op_shapes.h"
#include "gpusched/importers/ncu_join.h"
#include "gpusched/importers/ncu_report.h"
#include "gpusched/scheduler/registry.h"
#include "gpusched/sim/engine/spec_time.h"
#include "gpusched/sim/output/gpu_idle_split.h"
#include "gpusched/sim/output/launch_span_recorder.h"
#include "gpusched/sim/output/summary_collector.h"
#include "gpusched/sim/simulation.h"
#include "gpusched/support/input_error.h"
#include "gpusched/workloads/workload_document.h"

namespace gpusched::validation {

double busy_time(std::vector<Interval> intervals) {
    std::sort(intervals.begin(), intervals.end(), [](const Interval& a, const Interval& b) { return a.start < b.start; });
    double total = 0, from = 0, to = 0;
    bool open = false;
    for (const auto& i : intervals) {
        if (open && i.start <= to) {
            to = std::max(to, i.end);
            continue;
        }
        if (open) total += to - from;
        from = i.start, to = i.end, open = true;
    }
    return open ? total + (to - from) : 0;
}

importers::ImportOptions step_options(int step) {
    importers::ImportOptions o;
    o.steps = {false, step, step};
    return o;
}

std::vector<Interval> measured_kernels(const importers::ImportedTrace& trace, const importers::ImportedApplication& app) {
    std::vector<Interval> out;
    for (const auto& item : app.items) {
        if (item.kind != importers::AppItem::Kind::kernel) continue;
        const auto& op = trace.ops[item.op];
        out.push_back({trace.names[op.name], static_cast<double>(op.start) * 1e-6,
                       static_cast<double>(op.start + op.duration) * 1e-6});
    }
    return out;
}

workloads::Application import_workload(const importers::ImportedTrace& trace, const importers::ImportedApplication& app,
                                       const std::string& preset, const std::string& ncu_csv) {
    importers::ImportSource source;
    source.tool = "torch";
    source.trace = trace.path;
    source.preset = preset;
    const importers::ImportTotals totals =
        importers::estimate_kernel_totals(trace, app, importers::read_op_shapes(trace.path), hw::resolve_gpu(preset));
    workloads::WorkloadDocument workload = importers::imported_workload(trace, app, source, &totals);
    workload.source = trace.path + " (imported)";
    std::error_code ec;
    if (!ncu_csv.empty() && std::filesystem::exists(ncu_csv, ec))
        importers::join_ncu(workload, ncu_csv, importers::read_ncu_csv(ncu_csv));
    return workloads::build_application(workload);
}

std::vector<Interval> simulated_kernels(const workloads::Application& app, const hw::GpuSpec& gpu,
                                        const std::string& policy_name, const std::string& execution,
                                        SimulatedSplit* split) {
    const auto policy = scheduler::make_policy(policy_name);
    sim::Simulation run(gpu, app, *policy, execution);
    sim::LaunchSpanRecorder spans;
    run.observe(spans);
    sim::SummaryCollector summary;
    if (split) run.observe(summary);
    run.run();
    if (split) {
        const sim::GpuIdleSplit s = sim::gpu_idle_split(summary.summary(), sim::kernel_launch_ps(gpu, app.host_issue));
        const auto us = [](Time ps) { return static_cast<double>(ps) * 1e-6; };
        *split = {us(s.busy), us(s.launch_overhead), us(s.host_bound), us(summary.summary().host_sync_wait)};
    }
    std::vector<Interval> out;
    for (std::size_t i = 0; i < app.launches.size(); ++i)
        out.push_back({app.launches[i].name, static_cast<double>(spans.spans()[i].first_start) * 1e-6,
                       static_cast<double>(spans.spans()[i].end) * 1e-6});
    return out;
}

std::map<std::string, std::map<int, std::string>> workload_traces(const std::string& dir) {
    std::map<std::string, std::map<int, std::string>> out;
    const std::regex pattern(R"((.+)_k([0-9]{1,4})\.json\.gz)");
    std::error_code ec;
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        std::smatch m;
        const std::string file = it->path().filename().string();
        if (std::regex_match(file, m, pattern)) out[m[1]][std::stoi(m[2])] = it->path().string();
    }
    if (ec) throw InputError(dir + ": cannot list the directory: " + ec.message());
    return out;
}

std::string trace_preset(const importers::ImportedTrace& trace, const importers::ImportedApplication& app) {
    const auto device = std::find_if(trace.devices.begin(), trace.devices.end(),
                                     [&](const auto& d) { return d.id == app.device; });
    if (device == trace.devices.end()) throw InputError(trace.path + ": no deviceProperties for the device of its kernels");
    const std::string preset = importers::preset_for_device(*device);
    if (preset.empty()) throw InputError(trace.path + ": device '" + device->name + "' matches no GPU preset");
    return preset;
}

}  // namespace gpusched::validation
