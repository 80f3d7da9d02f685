// APSP runtime curves: measured vs simulated after one-point calibration, and where each curve jumps.
#include "experiments/curves/comparison.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

#include "gpusched/support/input_error.h"
#include "gpusched/support/parallel_indices.h"
#include "gpusched/scheduler/registry.h"
#include "gpusched/sim/simulation.h"
#include "gpusched/workloads/kernel_spec.h"
#include "host_timed_run.h"
#include "numeric_csv.h"

namespace gpusched::validation {

namespace {

constexpr int kDenseSweepMax = 200;

struct MeasuredRow {
    int n = 0;
    int block = 0;
    double ms = 0;
};

std::vector<MeasuredRow> read_curve_csv(const std::string& path) {
    std::vector<MeasuredRow> rows;
    for (const auto& r : read_numeric_csv(path, "runtime curve CSV", {"n", "block", "median_ms"})) {
        const double n = r.values[0], block = r.values[1], ms = r.values[2];
        if (n != std::floor(n) || n < 2 || n > 1e6) throw InputError(r.where + ": n must be an integer 2..10^6");
        if (block != std::floor(block) || block < 1 || block > 32)
            throw InputError(r.where + ": block must be an integer 1..32");
        if (!(ms > 0)) throw InputError(r.where + ": median_ms must be a positive number");
        rows.push_back({static_cast<int>(n), static_cast<int>(block), ms});
    }
    return rows;
}

double simulate_us(const hw::GpuSpec& gpu, const sim::DispatchPolicy& policy, const std::string& kernel, int n,
                   int block, bool queued) {
    const std::string size = ":n=" + std::to_string(n) + ",block=" + std::to_string(block);
    // The runner times Init (Alg. 1/3 line 1) too: one launch on the same grid whose threads do
    // one global round trip (load A, store D and P), here one Floyd-Warshall step without updates.
    workloads::Application app =
        workloads::application_from_specs({"apsp-fw" + size + ",steps=1,p_min=0", kernel + size});
    // As the runner times it: record(start), Init, the launches, record(stop), each call issued by
    // one host thread (when the GPU spec knows the host's launch interval; else all queued at 0).
    if (!queued && gpu.host_launch_interval_ns) app = event_timed_host_calls(std::move(app));
    sim::Simulation simulation(gpu, app, policy, "shared");
    return static_cast<double>(simulation.run().makespan) / 1e6;
}

int located(const std::vector<CurveJump>& jumps, const std::vector<CurveJump>& other) {
    int count = 0;
    for (const auto& j : jumps)
        count += std::any_of(other.begin(), other.end(), [&](const CurveJump& o) { return std::abs(o.n - j.n) <= 1; });
    return count;
}

/// `<curves_dir>/repeats/<stem>*.csv` in name order: further host-timed sweeps of one curve file.
std::vector<std::string> repeat_sweeps(const std::string& curves_dir, const std::string& stem) {
    std::vector<std::string> paths;
    const std::filesystem::path dir = std::filesystem::path(curves_dir) / "repeats";
    if (!std::filesystem::is_directory(dir)) return paths;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        const std::string name = entry.path().filename().string();
        if (entry.is_regular_file() && name.starts_with(stem) && name.ends_with(".csv")) paths.push_back(entry.path().string());
    }
    std::sort(paths.begin(), paths.end());
    return paths;
}

}  // namespace

std::vector<CurveJump> find_jumps(const std::vector<std::pair<int, double>>& curve, double threshold_percent) {
    std::vector<CurveJump> jumps;
    for (std::size_t i = 1; i < curve.size(); ++i) {
        if (curve[i].first != curve[i - 1].first + 1 || !(curve[i - 1].second > 0)) continue;
        const double step = 100.0 * (curve[i].second - curve[i - 1].second) / curve[i - 1].second;
        if (step > threshold_percent) jumps.push_back({curve[i].first, step});
    }
    return jumps;
}

std::vector<CurveComparison> validate_apsp_curves(const std::string& csv_path, const hw::GpuSpec& gpu,
                                                  const std::string& policy_name, double jump_threshold_percent) {
    return validate_curves(csv_path, "apsp-minplus", gpu, policy_name, jump_threshold_percent);
}

void mark_reproducible_jumps(CurveComparison& c, const std::vector<std::string>& repeat_csvs,
                             double jump_threshold_percent) {
    c.reproducible_jumps = c.measured_jumps;
    c.repeat_sweeps = 0;
    for (const auto& path : repeat_csvs) {
        std::vector<std::pair<int, double>> curve;
        for (const auto& r : read_curve_csv(path))
            if (r.block == c.block) curve.emplace_back(r.n, r.ms);
        if (curve.empty()) continue;
        std::sort(curve.begin(), curve.end());
        const auto jumps = find_jumps(curve, jump_threshold_percent);
        std::erase_if(c.reproducible_jumps, [&](const CurveJump& j) {
            return std::none_of(jumps.begin(), jumps.end(), [&](const CurveJump& o) { return o.n == j.n; });
        });
        ++c.repeat_sweeps;
    }
    if (c.repeat_sweeps == 0) c.reproducible_jumps.clear();
    c.reproducible_jumps_located = located(c.reproducible_jumps, c.simulated_jumps);
}

std::vector<CurveComparison> validate_curve_dir(const std::string& curves_dir, const hw::GpuSpec& gpu,
                                                const std::string& policy_name) {
    struct CurveFile {
        std::string path, kernel;
        bool queued = false;
        std::vector<std::string> repeats;
    };
    std::vector<CurveFile> files;
    for (const bool queued : {false, true})
        for (const auto& [stem, kernel] : {std::pair<const char*, const char*>{"apsp_minplus", "apsp-minplus"},
                                           std::pair<const char*, const char*>{"apsp_fw", "apsp-fw"}}) {
            const std::string file = std::string(stem) + (queued ? "_queued.csv" : ".csv");
            const std::string path = (std::filesystem::path(curves_dir) / file).string();
            if (!std::filesystem::is_regular_file(path)) continue;
            files.push_back({path, kernel, queued, queued ? std::vector<std::string>{} : repeat_sweeps(curves_dir, stem)});
        }
    // The files are independent: each on a thread of its own (its points on more), the results in file order.
    std::vector<std::vector<CurveComparison>> per_file(files.size());
    for_each_index(files.size(), [&](std::size_t i) {
        per_file[i] = validate_curves(files[i].path, files[i].kernel, gpu, policy_name, 4.0, files[i].queued);
        if (!files[i].repeats.empty())
            for (auto& c : per_file[i]) mark_reproducible_jumps(c, files[i].repeats);
    });
    std::vector<CurveComparison> out;
    for (auto& curves : per_file)
        for (auto& c : curves) out.push_back(std::move(c));
    return out;
}

std::vector<CurveComparison> validate_curves(const std::string& csv_path, const std::string& kernel,
                                             const hw::GpuSpec& gpu, const std::string& policy_name,
                                             double jump_threshold_percent, bool queued) {
    const std::vector<MeasuredRow> rows = read_curve_csv(csv_path);
    (void)scheduler::make_policy(policy_name);  // an unknown name fails here, before any thread starts
    std::map<int, std::vector<MeasuredRow>> by_block;
    for (const auto& r : rows) by_block[r.block].push_back(r);
    std::vector<CurveComparison> out;
    for (auto& [block, points] : by_block) {
        std::sort(points.begin(), points.end(), [](const MeasuredRow& a, const MeasuredRow& b) { return a.n < b.n; });
        CurveComparison c;
        c.kernel = kernel;
        c.issue = queued ? "queued" : "host-calls";
        c.block = block;
        std::vector<int> dense;
        for (const auto& p : points)
            if (p.n <= kDenseSweepMax) dense.push_back(p.n);
        c.reference_n = dense.empty() ? points[points.size() / 2].n : dense[dense.size() / 2];
        // The points' simulations are independent: on the machine's threads, each with a policy of its own.
        std::vector<double> simulated_us(points.size());
        for_each_index(points.size(), [&](std::size_t i) {
            simulated_us[i] = simulate_us(gpu, *scheduler::make_policy(policy_name), kernel, points[i].n, block, queued);
        });
        for (std::size_t i = 0; i < points.size(); ++i)
            c.points.push_back({points[i].n, points[i].ms * 1000.0, simulated_us[i], 0, 0});
        const auto ref = std::find_if(c.points.begin(), c.points.end(), [&](const CurvePoint& p) { return p.n == c.reference_n; });
        c.factor = ref->measured_us / ref->simulated_us;
        std::vector<double> errors;
        std::vector<std::pair<int, double>> measured, simulated;
        for (auto& p : c.points) {
            p.calibrated_us = p.simulated_us * c.factor;
            p.error_percent = 100.0 * (p.calibrated_us - p.measured_us) / p.measured_us;
            errors.push_back(std::abs(p.error_percent));
            measured.emplace_back(p.n, p.measured_us);
            simulated.emplace_back(p.n, p.simulated_us);
        }
        const ErrorSummary summary = summarise_errors(errors);
        c.median_abs_error_percent = summary.median;
        c.max_abs_error_percent = summary.max;
        c.measured_jumps = find_jumps(measured, jump_threshold_percent);
        c.simulated_jumps = find_jumps(simulated, jump_threshold_percent);
        c.measured_jumps_located = located(c.measured_jumps, c.simulated_jumps);
        c.simulated_jumps_located = located(c.simulated_jumps, c.measured_jumps);
        out.push_back(std::move(c));
    }
    return out;
}

}  // namespace gpusched::validation
