// validate --trace: each profiled step of a trace imported alone and simulated, compared with the trace itself.
#include "experiments/trace_replay/comparison.h"

#include <algorithm>
#include <cmath>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/importers/kineto_reader.h"
#include "gpusched/support/input_error.h"
#include "imported_runs.h"
#include "numeric_csv.h"

namespace gpusched::validation {

namespace {

TraceStep compare_step(const importers::ImportedTrace& trace, std::int64_t step, bool whole, const std::string& gpu_name,
                       const std::string& policy, const std::string& execution) {
    importers::ImportOptions options;
    if (!whole) options = step_options(static_cast<int>(step));
    const importers::ImportedApplication app = importers::build_application(trace, options);
    const std::string preset = trace_preset(trace, app);
    const workloads::Application workload = import_workload(trace, app, preset, "");
    const double origin = static_cast<double>(app.origin) * 1e-6;
    std::vector<Interval> measured = measured_kernels(trace, app);
    for (auto& k : measured) k.start -= origin, k.end -= origin;
    SimulatedSplit split;
    const std::vector<Interval> simulated =
        simulated_kernels(workload, hw::resolve_gpu(gpu_name.empty() ? preset : gpu_name), policy, execution, &split);
    if (measured.size() != simulated.size())
        throw InputError(trace.path + ": step " + std::to_string(step) + ": " + std::to_string(measured.size()) +
                         " kernels measured but " + std::to_string(simulated.size()) + " simulated");
    TraceStep s;
    s.step = step;
    s.kernels = measured.size();
    for (std::size_t i = 0; i < measured.size(); ++i) {
        s.measured_span_us = std::max(s.measured_span_us, measured[i].end);
        s.simulated_span_us = std::max(s.simulated_span_us, simulated[i].end);
    }
    s.span_error_percent = percent_error(s.simulated_span_us, s.measured_span_us);
    s.measured_busy_us = busy_time(measured);
    s.simulated_busy_us = busy_time(simulated);
    s.simulated_idle_percent = s.simulated_span_us > 0 ? 100 * (s.simulated_span_us - s.simulated_busy_us) / s.simulated_span_us : 0;
    const double total = split.busy_us + split.launch_overhead_us + split.host_bound_us;  // the span to the last kernel's end
    if (total > 0) {
        s.simulated_gpu_busy_percent = 100 * split.busy_us / total;
        s.simulated_launch_overhead_percent = 100 * split.launch_overhead_us / total;
        s.simulated_host_bound_percent = 100 * split.host_bound_us / total;
    }
    s.simulated_sync_wait_us = split.sync_wait_us;
    std::vector<double> starts, durations;
    for (std::size_t i = 0; i < measured.size(); ++i) {
        TraceKernel k;
        k.index = i;
        k.name = measured[i].name;
        k.measured_start_us = measured[i].start;
        k.simulated_start_us = simulated[i].start;
        k.measured_us = measured[i].end - measured[i].start;
        k.simulated_us = simulated[i].end - simulated[i].start;
        k.start_error_percent_of_span =
            s.measured_span_us > 0 ? 100 * (k.simulated_start_us - k.measured_start_us) / s.measured_span_us : 0;
        starts.push_back(std::abs(k.start_error_percent_of_span));
        if (k.measured_us > 0) durations.push_back(std::abs(percent_error(k.simulated_us, k.measured_us)));
        s.kernel_rows.push_back(std::move(k));
    }
    if (!starts.empty()) {
        const ErrorSummary e = summarise_errors(starts);
        s.start_median_abs_error_percent = e.median;
        s.start_max_abs_error_percent = e.max;
    }
    if (!durations.empty()) s.duration_median_abs_error_percent = summarise_errors(durations).median;
    return s;
}

}  // namespace

TraceComparison validate_trace(const std::string& path, const std::string& gpu, const std::string& policy,
                               const std::string& execution) {
    const importers::ImportedTrace trace = importers::read_kineto_trace(path);
    TraceComparison c;
    c.trace = path;
    c.policy = policy;
    c.execution = execution;
    std::vector<std::int64_t> steps;
    for (const auto& marker : trace.steps)
        if (std::find(steps.begin(), steps.end(), marker.number) == steps.end()) steps.push_back(marker.number);
    std::sort(steps.begin(), steps.end());
    if (steps.empty()) c.steps.push_back(compare_step(trace, 0, true, gpu, policy, execution));
    for (const std::int64_t step : steps) c.steps.push_back(compare_step(trace, step, false, gpu, policy, execution));
    c.gpu = gpu;
    if (c.gpu.empty()) {
        const importers::ImportedApplication app = importers::build_application(trace, {});
        c.gpu = trace_preset(trace, app);
    }
    std::vector<double> spans;
    for (const auto& s : c.steps) {
        spans.push_back(std::abs(s.span_error_percent));
        c.start_max_abs_error_percent = std::max(c.start_max_abs_error_percent, s.start_max_abs_error_percent);
    }
    const ErrorSummary e = summarise_errors(spans);
    c.span_median_abs_error_percent = e.median;
    c.span_max_abs_error_percent = e.max;
    return c;
}

}  // namespace gpusched::validation
