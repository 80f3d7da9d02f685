// Fitting the binomial-series work model (instr_per_term, term_latency_cycles) to measured run times.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/calibrate/measured_data.h"
#include "gpusched/hw/gpu_spec.h"

namespace gpusched::calibrate {

/// The two fitted keys of `binomial-series`.
struct SeriesParams {
    double instr_per_term = 0;       ///< issue slots per term: the throughput-bound slope
    double term_latency_cycles = 0;  ///< latency floor per term: the flat part
};

/// The one-line spec of a measured point with the given keys.
std::string series_spec(const SeriesMeasurement& m, const SeriesParams& p);

/// Simulated run times (us, `shared` model, whole makespan) of measured points, memoised.
///
/// Scaling both keys by a scales every warp's issue slots and latency floor by a, so what a
/// block spends executing scales by a while launch and dispatch overheads do not. The fit
/// uses that: per point, overhead o = simulated time with both keys 0, and for a ratio
/// r = term_latency_cycles / instr_per_term, work w(r) = simulated time at (I0, r I0) - o.
/// Then (a I0, a r I0) gives about o + a w(r). Reported errors always come from a full
/// simulation at the fitted keys (simulate_us), not from this decomposition.
class SeriesSimulator {
public:
    SeriesSimulator(hw::GpuSpec gpu, std::string policy, std::vector<SeriesMeasurement> points,
                    double reference_instr = 10);

    [[nodiscard]] const std::vector<SeriesMeasurement>& points() const { return points_; }
    [[nodiscard]] double reference_instr() const { return reference_instr_; }
    /// Full simulation of point i at p (not memoised).
    [[nodiscard]] double simulate_us(std::size_t i, const SeriesParams& p);
    double overhead_us(std::size_t i);
    double work_us(std::size_t i, double ratio);
    /// Fills the memo for every point of `train` at every ratio of `ratios` (and their overheads),
    /// the missing simulations on the machine's threads (support/parallel_indices.h). The values
    /// are those work_us() and overhead_us() would compute one by one, and simulations() counts the
    /// same simulations, so a fit is the same with or without it.
    void prefetch(const std::vector<std::size_t>& train, const std::vector<double>& ratios);
    [[nodiscard]] std::size_t simulations() const { return simulations_; }
    /// `observer` is called with simulations() after each simulation (a progress display); none by default.
    void on_simulation(std::function<void(std::size_t)> observer) { observer_ = std::move(observer); }

private:
    /// The makespan of point i at p in us: one simulation, touching nothing shared (threads call it).
    [[nodiscard]] double run_us(std::size_t i, const SeriesParams& p) const;
    /// One more simulation done: the count and the observer.
    void count_simulation();

    hw::GpuSpec gpu_;
    std::string policy_;
    std::vector<SeriesMeasurement> points_;
    double reference_instr_;
    std::vector<std::optional<double>> overhead_;
    std::map<double, std::vector<std::optional<double>>> work_;
    std::size_t simulations_ = 0;
    std::function<void(std::size_t)> observer_;
};

/// Search range of the ratio r = term_latency_cycles / instr_per_term: r = 0 and a geometric
/// grid min_ratio x 2^(k / steps_per_octave) up to max_ratio, then a golden-section refinement
/// (in log r) between the best grid point's neighbours.
struct SeriesFitOptions {
    double min_ratio = 1.0 / 16;
    double max_ratio = 64;
    int steps_per_octave = 4;
    int refine_iterations = 16;
};

struct SeriesFit {
    SeriesParams params;
    double ratio = 0;            ///< r
    double rms_percent = 0;      ///< RMS relative error of o + a w(r) on the training points
};

/// For each r, a is the least-squares solution (Eigen) of sum_i ((a w_i(r) + o_i - m_i) / m_i)^2
/// over `train`; r is searched as above to minimise that sum. Deterministic.
SeriesFit fit_series(SeriesSimulator& sim, const std::vector<std::size_t>& train, const SeriesFitOptions& options = {});

}  // namespace gpusched::calibrate
