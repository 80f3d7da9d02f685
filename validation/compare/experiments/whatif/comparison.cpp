// What-if on fewer SMs: import the whole-GPU trace, simulate it on K SMs, compare with the runs measured on K SMs.
#include "experiments/whatif/comparison.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <regex>
#include <sstream>

#include "gpusched/hw/gpu_overrides.h"
#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/hw/occupancy.h"
#include "gpusched/importers/imported_application.h"
#include "gpusched/importers/kineto_reader.h"
#include "gpusched/support/input_error.h"
#include "gpusched/support/parallel_indices.h"
#include "experiments/curves/comparison.h"
#include "experiments/series/comparison.h"
#include "imported_runs.h"
#include "numeric_csv.h"

namespace gpusched::validation {

namespace {

namespace fs = std::filesystem;

/// The workloads of `dir`: (name, {K: trace path}) from `<name>_k<K>.json.gz`; InputError when there are none.
std::map<std::string, std::map<int, std::string>> find_traces(const std::string& dir) {
    auto out = workload_traces(dir);
    if (out.empty()) throw InputError(dir + ": no traces named WORKLOAD_kK.json.gz");
    return out;
}

WhatIfWorkload compare_workload(const std::string& name, const std::map<int, std::string>& traces,
                                const std::string& ncu_csv, const std::string& policy, const std::string& execution,
                                int step, hw::GpuSpec& gpu_out) {
    const std::string& last = traces.rbegin()->second;
    const importers::ImportedTrace reference = importers::read_kineto_trace(last);
    const importers::ImportedApplication reference_app = importers::build_application(reference, step_options(step));
    const std::string preset = trace_preset(reference, reference_app);
    const hw::GpuSpec gpu = hw::resolve_gpu(preset);
    gpu_out = gpu;
    if (traces.rbegin()->first != gpu.sm_count)
        throw InputError(last + ": the largest K of " + name + " is " + std::to_string(traces.rbegin()->first) +
                         ", not the whole GPU's " + std::to_string(gpu.sm_count) + " SMs");
    const workloads::Application app = import_workload(reference, reference_app, preset, ncu_csv);

    WhatIfWorkload w;
    w.name = name;
    w.gpu = preset;
    w.reference_sms = gpu.sm_count;
    for (auto it = traces.rbegin(); it != traces.rend(); ++it) w.sms.push_back(it->first);
    for (const auto& marker : reference.steps)
        if (marker.number != step && std::find(w.other_steps.begin(), w.other_steps.end(), marker.number) == w.other_steps.end())
            w.other_steps.push_back(marker.number);
    std::sort(w.other_steps.begin(), w.other_steps.end());
    const std::vector<Interval> reference_measured = measured_kernels(reference, reference_app);
    if (reference_measured.size() != app.launches.size())
        throw InputError(last + ": " + std::to_string(reference_measured.size()) + " kernels measured in step " +
                         std::to_string(step) + " but " + std::to_string(app.launches.size()) + " imported");
    for (std::size_t i = 0; i < app.launches.size(); ++i) {
        WhatIfKernel k;
        k.index = i;
        k.name = app.launches[i].name;
        k.blocks = app.launches[i].blocks();
        k.blocks_per_sm = std::max(1, hw::compute_occupancy(gpu, app.launches[i].occupancy_request()).blocks_per_sm);
        w.kernels.push_back(std::move(k));
    }
    const auto waves = [](std::uint64_t blocks, int per_sm, int sms) {
        const auto resident = static_cast<std::uint64_t>(per_sm) * static_cast<std::uint64_t>(sms);
        return (blocks + resident - 1) / resident;
    };
    // Each K's measured and simulated kernels on the machine's threads (its own slots), then compared in K order.
    struct AtK {
        std::vector<Interval> measured, simulated;
        std::vector<std::vector<Interval>> other_steps;  // per w.other_steps: empty where this trace lacks it
    };
    std::vector<AtK> at_k(w.sms.size());
    for_each_index(w.sms.size(), [&](std::size_t index) {
        const int k = w.sms[index];
        const bool is_reference = k == gpu.sm_count;
        AtK& r = at_k[index];
        r.measured = reference_measured;
        std::optional<importers::ImportedTrace> read;
        if (!is_reference) {
            read = importers::read_kineto_trace(traces.at(k));
            r.measured = measured_kernels(*read, importers::build_application(*read, step_options(step)));
        }
        const importers::ImportedTrace& trace = is_reference ? reference : *read;
        for (const std::int64_t s : w.other_steps) {
            const bool present = std::any_of(trace.steps.begin(), trace.steps.end(), [&](const auto& m) { return m.number == s; });
            r.other_steps.push_back(present ? measured_kernels(trace, importers::build_application(trace, step_options(static_cast<int>(s))))
                                            : std::vector<Interval>{});
        }
        r.simulated = simulated_kernels(app, is_reference ? gpu : what_if_gpu(gpu, k), policy, execution);
    });
    double measured_reference = 0, simulated_reference = 0;
    for (std::size_t index = 0; index < w.sms.size(); ++index) {
        const int k = w.sms[index];
        const bool is_reference = k == gpu.sm_count;
        const std::vector<Interval>& measured = at_k[index].measured;
        const std::vector<Interval>& simulated = at_k[index].simulated;
        const std::vector<std::vector<Interval>>& other_steps = at_k[index].other_steps;
        WhatIfPoint p;
        p.sms = k;
        p.measured_busy_us = busy_time(measured);
        p.simulated_busy_us = busy_time(simulated);
        p.same_kernels = measured.size() == reference_measured.size();
        for (std::size_t i = 0; p.same_kernels && i < measured.size(); ++i)
            p.same_kernels = measured[i].name == reference_measured[i].name;
        if (is_reference) measured_reference = p.measured_busy_us, simulated_reference = p.simulated_busy_us;
        p.measured_ratio = p.measured_busy_us / measured_reference;
        p.predicted_ratio = p.simulated_busy_us / simulated_reference;
        p.error_percent = percent_error(p.predicted_ratio, p.measured_ratio);
        for (auto& kernel : w.kernels) {
            const std::size_t i = kernel.index;
            const bool matched = i < measured.size() && measured[i].name == reference_measured[i].name;
            kernel.measured_us.push_back(matched ? measured[i].end - measured[i].start : 0);
            kernel.simulated_us.push_back(simulated[i].end - simulated[i].start);
            kernel.waves_change.push_back(waves(kernel.blocks, kernel.blocks_per_sm, k) !=
                                          waves(kernel.blocks, kernel.blocks_per_sm, gpu.sm_count));
            std::vector<double> others;
            for (const auto& o : other_steps)
                others.push_back(i < o.size() && o[i].name == reference_measured[i].name ? o[i].end - o[i].start : 0);
            kernel.measured_other_steps_us.push_back(std::move(others));
        }
        w.points.push_back(p);
    }
    w.reference_busy_error_percent = percent_error(simulated_reference, measured_reference);
    std::vector<double> errors;
    for (const auto& kernel : w.kernels) errors.push_back(std::abs(percent_error(kernel.simulated_us[0], kernel.measured_us[0])));
    const ErrorSummary e = summarise_errors(errors);
    w.reference_kernel_median_abs_error_percent = e.median;
    w.reference_kernel_max_abs_error_percent = e.max;
    return w;
}

/// The project's own kernels: (experiment, point) -> measured and simulated us, for one K.
using OwnTimes = std::map<std::pair<std::string, std::string>, std::pair<double, double>>;

/// The series kernel's work keys for a green-context directory: its own `binomial_work.txt` if it has
/// one, else the series section's (`curves/binomial_work.txt` beside `green/`: the same runner build
/// and kernel, docs/validation.md "Binomial series"); "" when neither exists (the generator's defaults).
std::string series_work_file(const std::string& dir, const std::string& green_dir) {
    std::error_code ec;
    const fs::path beside = fs::path(dir) / "binomial_work.txt";
    if (fs::exists(beside, ec)) return beside.string();
    const fs::path curves = fs::path(green_dir).parent_path() / "curves" / "binomial_work.txt";
    return fs::exists(curves, ec) ? curves.string() : "";
}

OwnTimes own_times(const std::string& dir, const std::string& green_dir, const hw::GpuSpec& gpu, const std::string& policy,
                   std::string& work_file) {
    OwnTimes out;
    for (const auto& [file, kernel] : {std::pair<std::string, std::string>{"apsp_minplus_queued.csv", "apsp-minplus"},
                                       {"apsp_fw_queued.csv", "apsp-fw"}}) {
        const std::string path = (fs::path(dir) / file).string();
        std::error_code ec;
        if (!fs::exists(path, ec)) continue;
        for (const auto& c : validate_curves(path, kernel, gpu, policy, 4.0, true))
            for (const auto& p : c.points)
                out[{kernel + " bs" + std::to_string(c.block), "n=" + std::to_string(p.n)}] = {p.measured_us, p.simulated_us};
    }
    const std::string series = (fs::path(dir) / "binomial.csv").string();
    std::error_code ec;
    if (fs::exists(series, ec)) {
        const SeriesComparison s = validate_series(series, gpu, policy, series_work_file(dir, green_dir));
        work_file = s.work_file;
        for (const auto& p : s.points)
            out[{"series t" + std::to_string(p.threads), "blocks=" + std::to_string(p.blocks)}] = {p.measured_us, p.simulated_us};
    }
    return out;
}

std::vector<WhatIfOwnPoint> compare_own(const std::string& green_dir, const hw::GpuSpec& gpu, const std::string& policy,
                                        std::string& series_work) {
    std::map<int, std::string> dirs;
    const std::regex pattern(R"(k([0-9]{1,4}))");
    std::error_code ec;
    for (fs::directory_iterator it(green_dir, ec), end; !ec && it != end; it.increment(ec)) {
        std::smatch m;
        const std::string file = it->path().filename().string();
        if (it->is_directory(ec) && std::regex_match(file, m, pattern)) dirs[std::stoi(m[1])] = it->path().string();
    }
    std::vector<WhatIfOwnPoint> out;
    if (dirs.empty() || dirs.rbegin()->first != gpu.sm_count) return out;
    // Every K's own kernels on the machine's threads (descending K, the reference first), then compared.
    const std::vector<std::pair<int, std::string>> descending(dirs.rbegin(), dirs.rend());
    std::vector<OwnTimes> all(descending.size());
    for_each_index(descending.size(), [&](std::size_t i) {
        std::string unused;
        all[i] = i == 0 ? own_times(descending[i].second, green_dir, gpu, policy, series_work)
                        : own_times(descending[i].second, green_dir, what_if_gpu(gpu, descending[i].first), policy, unused);
    });
    const OwnTimes& reference = all.front();
    for (std::size_t i = 1; i < descending.size(); ++i) {
        const OwnTimes& times = all[i];
        for (const auto& [key, t] : times) {
            const auto ref = reference.find(key);
            if (ref == reference.end() || ref->second.first <= 0 || ref->second.second <= 0) continue;
            WhatIfOwnPoint p;
            p.experiment = key.first;
            p.point = key.second;
            p.sms = descending[i].first;
            p.measured_ratio = t.first / ref->second.first;
            p.predicted_ratio = t.second / ref->second.second;
            p.error_percent = percent_error(p.predicted_ratio, p.measured_ratio);
            out.push_back(std::move(p));
        }
    }
    return out;
}

}  // namespace

hw::GpuSpec what_if_gpu(const hw::GpuSpec& gpu, int sms) {
    hw::GpuSpec out = hw::with_sm_count(gpu, sms);
    out.name = hw::overridden_gpu_name(gpu.name, {{"sm_count", std::to_string(sms)}});
    return out;
}

WhatIfComparison validate_what_if(const std::string& torch_dir, const std::string& green_dir, const std::string& policy,
                                  const std::string& execution, int step, bool join_ncu) {
    WhatIfComparison c;
    // One workload per job on the machine's threads; each job fills its own slots.
    const auto found = find_traces(torch_dir);
    const std::vector<std::pair<std::string, std::map<int, std::string>>> entries(found.begin(), found.end());
    c.workloads.resize(entries.size());
    std::vector<hw::GpuSpec> gpus(entries.size());
    for_each_index(entries.size(), [&](std::size_t i) {
        const auto& [name, traces] = entries[i];
        const std::string ncu = join_ncu ? (fs::path(torch_dir) / "ncu" / (name + ".csv.gz")).string() : "";
        c.workloads[i] = compare_workload(name, traces, ncu, policy, execution, step, gpus[i]);
    });
    const hw::GpuSpec gpu = gpus.back();  // every workload's trace maps to the same preset
    c.sm_rule = "at K = 16: " + hw::sm_count_rule(gpu, 16);
    std::vector<double> busy, reference, wave_change;
    for (const auto& w : c.workloads) {
        for (const auto& p : w.points)
            if (p.sms != w.reference_sms) busy.push_back(std::abs(p.error_percent));
        for (const auto& k : w.kernels) {
            reference.push_back(std::abs(percent_error(k.simulated_us[0], k.measured_us[0])));
            for (std::size_t i = 1; i < w.sms.size(); ++i) {
                if (!k.waves_change[i] || k.measured_us[i] <= 0 || k.measured_us[0] <= 0) continue;
                const double e = std::abs(percent_error(k.simulated_us[i] / k.simulated_us[0], k.measured_us[i] / k.measured_us[0]));
                wave_change.push_back(e);
                ++c.wave_change_kernels;
                if (e <= 3) ++c.wave_change_within_3_percent;
                const double measured_ratio = k.measured_us[i] / k.measured_us[0];
                for (std::size_t s = 0; s < w.other_steps.size(); ++s) {
                    const double at_k = k.measured_other_steps_us[i][s], at_reference = k.measured_other_steps_us[0][s];
                    if (at_k <= 0 || at_reference <= 0) continue;
                    ++c.wave_change_step_comparisons;
                    if (std::abs(percent_error(at_k / at_reference, measured_ratio)) <= 3) ++c.wave_change_steps_within_3_percent;
                }
            }
        }
    }
    if (!busy.empty()) {
        const ErrorSummary b = summarise_errors(busy);
        c.median_abs_busy_error_percent = b.median;
        c.max_abs_busy_error_percent = b.max;
    }
    if (!reference.empty()) {
        const ErrorSummary r = summarise_errors(reference);
        c.reference_kernel_median_abs_error_percent = r.median;
        c.reference_kernel_max_abs_error_percent = r.max;
    }
    if (!wave_change.empty()) c.wave_change_median_abs_error_percent = summarise_errors(wave_change).median;
    std::error_code ec;
    if (!green_dir.empty() && fs::is_directory(green_dir, ec)) {
        c.own = compare_own(green_dir, gpu, policy, c.own_series_work_file);
        std::vector<double> own;
        for (const auto& p : c.own) own.push_back(std::abs(p.error_percent));
        if (!own.empty()) {
            const ErrorSummary o = summarise_errors(own);
            c.own_median_abs_error_percent = o.median;
            c.own_max_abs_error_percent = o.max;
        }
    }
    return c;
}

}  // namespace gpusched::validation
