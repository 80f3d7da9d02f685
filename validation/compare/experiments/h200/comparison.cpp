// The H200's curves and series on the h200 preset, and the cross-GPU ratios: measured H200 / H100 against predicted.
#include "experiments/h200/comparison.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <map>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/scheduler/registry.h"
#include "gpusched/sim/simulation.h"
#include "gpusched/support/text_file.h"
#include "gpusched/workloads/kernel_spec.h"

namespace gpusched::validation {

namespace fs = std::filesystem;

namespace {

constexpr const char* kH200DeviceName = "NVIDIA H200";

/// The `# device_name=` metadata of a runner CSV ("" when absent).
std::string device_name(const std::string& csv) {
    TextLineReader reader(csv, "runner CSV");
    const std::string prefix = "# device_name=";
    std::string line;
    while (reader.next(line)) {
        if (line.rfind(prefix, 0) == 0) return line.substr(prefix.size());
        if (!line.empty() && line[0] != '#') break;
    }
    return "";
}

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

/// The row of per-point (measured H200, measured H100, simulated h200, simulated h100) quadruples.
CrossGpuRatio ratio_row(const std::string& experiment, const std::vector<std::array<double, 4>>& points) {
    CrossGpuRatio r;
    r.experiment = experiment;
    r.points = static_cast<int>(points.size());
    std::vector<double> measured, predicted, errors;
    for (const auto& [m200, m100, s200, s100] : points) {
        measured.push_back(m200 / m100);
        predicted.push_back(s200 / s100);
        errors.push_back(std::abs((s200 / s100) / (m200 / m100) - 1) * 100);
    }
    r.measured_median = median(measured);
    r.predicted_median = median(predicted);
    r.median_abs_error_percent = median(errors);
    r.max_abs_error_percent = errors.empty() ? 0 : *std::max_element(errors.begin(), errors.end());
    return r;
}

std::string curve_name(const CurveComparison& c) {
    return c.kernel + " " + c.issue + " " + std::to_string(c.block);
}

/// One series point's makespan, us: `binomial-series:blocks=B,threads=T,terms=K` with the
/// generator's defaults (the H200 data has no measured work keys, so neither side takes the H100's).
double series_us(const SeriesPoint& p, const hw::GpuSpec& gpu, const sim::DispatchPolicy& policy) {
    const workloads::Application app = workloads::application_from_specs(
        {"binomial-series:blocks=" + std::to_string(p.blocks) + ",threads=" + std::to_string(p.threads) +
         ",terms=" + std::to_string(p.terms)});
    sim::Simulation run(gpu, app, policy, "shared");
    return static_cast<double>(run.run().makespan) / 1e6;
}

void add_ratios(CrossGpuComparison& c, const std::string& policy) {
    const hw::GpuSpec h100 = hw::resolve_gpu("h100");
    const std::vector<CurveComparison> h100_curves = validate_curve_dir(c.h100_dir + "/curves", h100, policy);
    for (const CurveComparison& mine : c.curves) {
        const auto other = std::find_if(h100_curves.begin(), h100_curves.end(), [&](const CurveComparison& o) {
            return o.kernel == mine.kernel && o.issue == mine.issue && o.block == mine.block;
        });
        if (other == h100_curves.end()) continue;
        std::map<int, const CurvePoint*> by_n;
        for (const CurvePoint& p : other->points) by_n[p.n] = &p;
        std::vector<std::array<double, 4>> points;
        for (const CurvePoint& p : mine.points)
            if (auto it = by_n.find(p.n); it != by_n.end())
                points.push_back({p.measured_us, it->second->measured_us, p.simulated_us, it->second->simulated_us});
        if (!points.empty()) c.ratios.push_back(ratio_row(curve_name(mine), points));
    }
    const std::string h100_series_csv = c.h100_dir + "/curves/binomial.csv";
    if (c.series.points.empty() || !fs::exists(h100_series_csv)) return;
    std::map<std::pair<int, int>, double> h100_measured;
    for (const SeriesPoint& p : validate_series(h100_series_csv, h100, policy).points)
        h100_measured[{p.blocks, p.threads}] = p.measured_us;
    const hw::GpuSpec h200 = hw::resolve_gpu("h200");
    const auto dispatch = scheduler::make_policy(policy);
    std::vector<std::array<double, 4>> points;
    for (const SeriesPoint& p : c.series.points)
        if (auto it = h100_measured.find({p.blocks, p.threads}); it != h100_measured.end())
            points.push_back({p.measured_us, it->second, series_us(p, h200, *dispatch), series_us(p, h100, *dispatch)});
    if (!points.empty()) c.ratios.push_back(ratio_row("binomial-series", points));
}

}  // namespace

CrossGpuComparison validate_cross_gpu(const std::string& data_dir, const std::string& policy) {
    CrossGpuComparison c;
    const hw::GpuSpec h200 = hw::resolve_gpu("h200");
    c.curves = validate_curve_dir((fs::path(data_dir) / "curves").string(), h200, policy);
    const std::string series_csv = (fs::path(data_dir) / "curves" / "binomial.csv").string();
    if (fs::exists(series_csv)) c.series = validate_series(series_csv, h200, policy);
    const fs::path h100_dir = fs::path(data_dir).lexically_normal().parent_path() / "h100";
    if (fs::exists(h100_dir / "curves")) {
        c.h100_dir = h100_dir.string();
        add_ratios(c, policy);
    }
    return c;
}

bool measured_on_h200(const std::string& data_dir) {
    const fs::path marker = fs::path(data_dir) / "curves" / "apsp_minplus_queued.csv";
    return fs::exists(marker) && device_name(marker.string()) == kH200DeviceName;
}

}  // namespace gpusched::validation
