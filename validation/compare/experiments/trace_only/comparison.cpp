// Trace-only what-if: import each trace alone, simulate it on K SMs and on the other GPU, compare with the traces measured there.
#include "experiments/trace_only/comparison.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/importers/kineto_reader.h"
#include "gpusched/support/input_error.h"
#include "gpusched/support/parallel_indices.h"
#include "imported_runs.h"
#include "numeric_csv.h"

namespace gpusched::validation {

namespace {

namespace fs = std::filesystem;

/// The whole-GPU traces of `dir`: workload -> (K, path) with the largest K of each workload.
std::map<std::string, std::pair<int, std::string>> whole_gpu_traces(const std::string& dir) {
    std::map<std::string, std::pair<int, std::string>> out;
    for (const auto& [name, traces] : workload_traces(dir)) out[name] = *traces.rbegin();
    return out;
}

/// The other GPU's torch directory beside `data_dir` (an H100 directory's h200, an H200's h100), or "".
std::string other_gpu_dir(const std::string& data_dir) {
    const fs::path dir = fs::path(data_dir).lexically_normal();
    const std::string name = (dir.has_filename() ? dir : dir.parent_path()).filename().string();
    const std::string other = name == "h100" ? "h200" : name == "h200" ? "h100" : "";
    if (other.empty()) return "";
    const fs::path candidate = (dir.has_filename() ? dir : dir.parent_path()).parent_path() / other / "torch";
    std::error_code ec;
    return fs::is_directory(candidate, ec) ? candidate.string() : "";
}

OtherGpuWorkload compare_other_gpu(const std::string& name, const std::string& reference_path, const std::string& other_path,
                                   const std::string& policy, const std::string& execution, int step) {
    const importers::ImportedTrace reference = importers::read_kineto_trace(reference_path);
    const importers::ImportedApplication reference_app = importers::build_application(reference, step_options(step));
    const importers::ImportedTrace other = importers::read_kineto_trace(other_path);
    const importers::ImportedApplication other_app = importers::build_application(other, step_options(step));
    OtherGpuWorkload w;
    w.name = name;
    w.reference_gpu = trace_preset(reference, reference_app);
    w.other_gpu = trace_preset(other, other_app);
    const workloads::Application app = import_workload(reference, reference_app, w.reference_gpu, "");
    const std::vector<Interval> measured_reference = measured_kernels(reference, reference_app);
    const std::vector<Interval> measured_other = measured_kernels(other, other_app);
    const std::vector<Interval> simulated_reference =
        simulated_kernels(app, hw::resolve_gpu(w.reference_gpu), policy, execution);
    const std::vector<Interval> simulated_other = simulated_kernels(app, hw::resolve_gpu(w.other_gpu), policy, execution);
    w.measured_reference_busy_us = busy_time(measured_reference);
    w.measured_other_busy_us = busy_time(measured_other);
    w.simulated_reference_busy_us = busy_time(simulated_reference);
    w.simulated_other_busy_us = busy_time(simulated_other);
    w.measured_ratio = w.measured_other_busy_us / w.measured_reference_busy_us;
    w.predicted_ratio = w.simulated_other_busy_us / w.simulated_reference_busy_us;
    w.busy_error_percent = percent_error(w.simulated_other_busy_us, w.measured_other_busy_us);
    std::vector<double> errors;
    const std::size_t n = std::min(measured_other.size(), simulated_other.size());
    for (std::size_t i = 0; i < n && measured_other.size() == simulated_other.size(); ++i) {
        if (measured_other[i].name != simulated_other[i].name && measured_other[i].name != measured_reference[i].name) break;
        const double m = measured_other[i].end - measured_other[i].start;
        const double s = simulated_other[i].end - simulated_other[i].start;
        if (m > 0) errors.push_back(std::abs(percent_error(s, m)));
    }
    w.kernels = errors.size();
    if (!errors.empty()) {
        const ErrorSummary e = summarise_errors(errors);
        w.kernel_median_abs_error_percent = e.median;
        w.kernel_max_abs_error_percent = e.max;
    }
    return w;
}

}  // namespace

TraceOnlyComparison validate_trace_only(const std::string& data_dir, const std::string& policy, const std::string& execution,
                                        int step) {
    TraceOnlyComparison c;
    const std::string torch = (fs::path(data_dir) / "torch").string();
    c.plain = validate_what_if(torch, "", policy, execution, step, false);
    std::error_code ec;
    for (const char* dir : {"torch_shapes", "torch_rounds_shapes/round1"}) {
        const std::string shapes = (fs::path(data_dir) / dir).string();
        if (!fs::is_directory(shapes, ec)) continue;
        c.has_shapes = true;
        c.shapes_dir = dir;
        c.shapes = validate_what_if(shapes, "", policy, execution, step, false);
        break;
    }
    c.other_dir = other_gpu_dir(data_dir);
    if (c.other_dir.empty()) return c;
    const auto here = whole_gpu_traces(torch);
    const auto there = whole_gpu_traces(c.other_dir);
    std::vector<std::pair<std::string, std::pair<std::string, std::string>>> pairs;  // name, (here, there)
    for (const auto& [name, reference] : here)
        if (const auto other = there.find(name); other != there.end())
            pairs.push_back({name, {reference.second, other->second.second}});
    c.other.resize(pairs.size());
    for_each_index(pairs.size(), [&](std::size_t i) {
        c.other[i] = compare_other_gpu(pairs[i].first, pairs[i].second.first, pairs[i].second.second, policy, execution, step);
    });
    std::vector<double> busy, kernels;
    for (const auto& o : c.other) {
        busy.push_back(std::abs(o.busy_error_percent));
        kernels.push_back(o.kernel_median_abs_error_percent);
    }
    if (!busy.empty()) {
        const ErrorSummary b = summarise_errors(busy);
        c.other_median_abs_busy_error_percent = b.median;
        c.other_max_abs_busy_error_percent = b.max;
        c.other_kernel_median_abs_error_percent = summarise_errors(kernels).median;
    }
    return c;
}

}  // namespace gpusched::validation
