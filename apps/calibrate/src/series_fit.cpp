// Binomial-series calibration: least squares for the throughput scale, 1-D search for the latency ratio.
#include "gpusched/calibrate/series_fit.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include <Eigen/Dense>

#include "gpusched/calibrate/calibration_file.h"
#include "gpusched/support/input_error.h"
#include "gpusched/support/parallel_indices.h"
#include "gpusched/scheduler/registry.h"
#include "gpusched/sim/simulation.h"
#include "gpusched/workloads/kernel_spec.h"

namespace gpusched::calibrate {

std::string series_spec(const SeriesMeasurement& m, const SeriesParams& p) {
    return "binomial-series:blocks=" + std::to_string(m.blocks) + ",threads=" + std::to_string(m.threads) +
           ",terms=" + std::to_string(m.terms) + ",instr_per_term=" + exact_number(p.instr_per_term) +
           ",term_latency_cycles=" + exact_number(p.term_latency_cycles);
}

SeriesSimulator::SeriesSimulator(hw::GpuSpec gpu, std::string policy, std::vector<SeriesMeasurement> points,
                                 double reference_instr)
    : gpu_(std::move(gpu)),
      policy_(std::move(policy)),
      points_(std::move(points)),
      reference_instr_(reference_instr),
      overhead_(points_.size()) {
    (void)scheduler::make_policy(policy_);  // unknown names fail here, before any fitting
}

double SeriesSimulator::run_us(std::size_t i, const SeriesParams& p) const {
    const auto policy = scheduler::make_policy(policy_);
    const workloads::Application app = workloads::application_from_specs({series_spec(points_.at(i), p)});
    sim::Simulation simulation(gpu_, app, *policy, "shared");
    return static_cast<double>(simulation.run().makespan) / 1e6;
}

void SeriesSimulator::count_simulation() {
    ++simulations_;
    if (observer_) observer_(simulations_);
}

double SeriesSimulator::simulate_us(std::size_t i, const SeriesParams& p) {
    const double us = run_us(i, p);
    count_simulation();
    return us;
}

double SeriesSimulator::overhead_us(std::size_t i) {
    if (!overhead_.at(i)) overhead_[i] = simulate_us(i, SeriesParams{});
    return *overhead_[i];
}

double SeriesSimulator::work_us(std::size_t i, double ratio) {
    auto& row = work_[ratio];
    if (row.empty()) row.resize(points_.size());
    if (!row.at(i)) row[i] = simulate_us(i, SeriesParams{reference_instr_, ratio * reference_instr_}) - overhead_us(i);
    return *row[i];
}

void SeriesSimulator::prefetch(const std::vector<std::size_t>& train, const std::vector<double>& ratios) {
    struct Job {
        std::size_t point;
        std::optional<double> ratio;  ///< none: the overhead (both keys 0)
    };
    std::vector<Job> jobs;
    for (const std::size_t i : train)
        if (!overhead_.at(i)) jobs.push_back({i, std::nullopt});
    for (const double ratio : ratios) {
        const auto row = work_.find(ratio);
        for (const std::size_t i : train)
            if (row == work_.end() || !row->second.at(i)) jobs.push_back({i, ratio});
    }
    std::vector<double> us(jobs.size());
    for_each_index(jobs.size(), [&](std::size_t j) {
        const Job& job = jobs[j];
        us[j] = run_us(job.point, job.ratio ? SeriesParams{reference_instr_, *job.ratio * reference_instr_} : SeriesParams{});
    });
    // The overheads come first in `jobs`, so each work row below finds its point's overhead set.
    for (std::size_t j = 0; j < jobs.size(); ++j) {
        count_simulation();
        if (!jobs[j].ratio) {
            overhead_[jobs[j].point] = us[j];
            continue;
        }
        auto& row = work_[*jobs[j].ratio];
        if (row.empty()) row.resize(points_.size());
        row[jobs[j].point] = us[j] - *overhead_[jobs[j].point];
    }
}

namespace {

struct RatioFit {
    double scale = 0;
    double rms = std::numeric_limits<double>::infinity();
};

/// Least squares for the scale a at one ratio, relative errors (rows divided by m_i).
RatioFit fit_at(SeriesSimulator& sim, const std::vector<std::size_t>& train, double ratio) {
    sim.prefetch(train, {ratio});  // the training points at this ratio on the machine's threads
    const auto n = static_cast<Eigen::Index>(train.size());
    Eigen::MatrixXd a(n, 1);
    Eigen::VectorXd b(n);
    for (Eigen::Index row = 0; row < n; ++row) {
        const std::size_t i = train[static_cast<std::size_t>(row)];
        const double m = sim.points()[i].measured_us;
        a(row, 0) = sim.work_us(i, ratio) / m;
        b(row) = (m - sim.overhead_us(i)) / m;
    }
    RatioFit out;
    if (!(a.norm() > 0)) return out;
    out.scale = std::max(0.0, a.colPivHouseholderQr().solve(b)(0));
    out.rms = 100.0 * std::sqrt((a.col(0) * out.scale - b).squaredNorm() / static_cast<double>(n));
    return out;
}

}  // namespace

SeriesFit fit_series(SeriesSimulator& sim, const std::vector<std::size_t>& train, const SeriesFitOptions& options) {
    if (train.empty()) throw InputError("calibrate: no measured points to fit");
    if (!(options.min_ratio > 0) || !(options.max_ratio > options.min_ratio) || options.steps_per_octave < 1)
        throw InputError("calibrate: bad ratio search range");
    std::vector<double> grid{0.0};
    for (int k = 0;; ++k) {
        const double r = options.min_ratio * std::exp2(static_cast<double>(k) / options.steps_per_octave);
        if (r > options.max_ratio * (1 + 1e-12)) break;
        grid.push_back(r);
    }
    sim.prefetch(train, grid);  // the grid's simulations at once, on the machine's threads
    std::size_t best = 0;
    std::vector<RatioFit> fits;
    for (std::size_t g = 0; g < grid.size(); ++g) {
        fits.push_back(fit_at(sim, train, grid[g]));
        if (fits[g].rms < fits[best].rms) best = g;
    }
    double ratio = grid[best];
    RatioFit fit = fits[best];
    if (best > 0) {
        // Golden section in log2 r between the neighbours (r = 0 has no logarithm: start at the first grid point).
        double lo = std::log2(grid[std::max<std::size_t>(best - 1, 1)]);
        double hi = std::log2(grid[std::min(best + 1, grid.size() - 1)]);
        const double phi = (std::sqrt(5.0) - 1) / 2;
        double x1 = hi - phi * (hi - lo), x2 = lo + phi * (hi - lo);
        RatioFit f1 = fit_at(sim, train, std::exp2(x1)), f2 = fit_at(sim, train, std::exp2(x2));
        for (int it = 0; it < options.refine_iterations; ++it) {
            if (f1.rms <= f2.rms) {
                hi = x2;
                x2 = x1;
                f2 = f1;
                x1 = hi - phi * (hi - lo);
                f1 = fit_at(sim, train, std::exp2(x1));
            } else {
                lo = x1;
                x1 = x2;
                f1 = f2;
                x2 = lo + phi * (hi - lo);
                f2 = fit_at(sim, train, std::exp2(x2));
            }
        }
        const auto& [x, f] = f1.rms <= f2.rms ? std::pair{x1, f1} : std::pair{x2, f2};
        if (f.rms < fit.rms) {
            ratio = std::exp2(x);
            fit = f;
        }
    }
    SeriesFit out;
    out.ratio = ratio;
    out.rms_percent = fit.rms;
    out.params.instr_per_term = fit.scale * sim.reference_instr();
    out.params.term_latency_cycles = fit.scale * ratio * sim.reference_instr();
    return out;
}

}  // namespace gpusched::calibrate
