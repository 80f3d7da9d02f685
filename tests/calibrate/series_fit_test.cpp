// binomial-series calibration recovers keys from data the simulator itself generated; deterministic.
#include <doctest/doctest.h>

#include "gpusched/calibrate/series_calibration.h"
#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/scheduler/registry.h"

using namespace gpusched;
using namespace gpusched::calibrate;

namespace {

/// Synthetic "measurements": the simulated times at known keys.
///
/// Under the `shared` model a warp of K terms needs W = K I issue slots and at least K L
/// cycles; with n resident warps on an SM each progresses at min(1/(K L), C/(n K I)) of its
/// work per cycle, so a one-wave launch lasts max(K L, n K I / C) cycles plus the launch and
/// dispatch overheads. Points with few warps per SM (n I / C < L) see only L, points with many
/// see only I: with both kinds in the table the two keys are identifiable. On the H100 preset
/// (C = 4), I = 16 and L = 48 put the knee at n = C L / I = 12 warps per SM: 132 blocks of 32
/// threads (1 warp per SM) are latency-bound; 1056 blocks of 512 threads (8 blocks of 16 warps
/// per SM, 4 resident at a time: 64 warps) are throughput-bound.
std::vector<SeriesMeasurement> synthetic(SeriesSimulator& truth_sim, const SeriesParams& truth) {
    std::vector<SeriesMeasurement> out = truth_sim.points();
    for (std::size_t i = 0; i < out.size(); ++i) out[i].measured_us = truth_sim.simulate_us(i, truth);
    return out;
}

std::vector<SeriesMeasurement> grid() {
    std::vector<SeriesMeasurement> out;
    for (const int threads : {32, 256, 512})
        for (const std::uint64_t blocks : {132, 528, 1056}) out.push_back({blocks, threads, 200, 1.0});
    return out;
}

}  // namespace

TEST_CASE("fit_series recovers instr_per_term and term_latency_cycles from simulated data") {
    const hw::GpuSpec gpu = hw::resolve_gpu("h100");
    const SeriesParams truth{16, 48};
    SeriesSimulator truth_sim(gpu, scheduler::default_policy(), grid());
    SeriesSimulator sim(gpu, scheduler::default_policy(), synthetic(truth_sim, truth));
    std::vector<std::size_t> all(sim.points().size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    const SeriesFit fit = fit_series(sim, all);
    CHECK(fit.params.instr_per_term == doctest::Approx(16).epsilon(0.01));
    CHECK(fit.params.term_latency_cycles == doctest::Approx(48).epsilon(0.02));
    CHECK(fit.rms_percent < 0.5);
    // Every point at the fitted keys, fully simulated, within 1% of the truth.
    for (std::size_t i = 0; i < all.size(); ++i)
        CHECK(sim.simulate_us(i, fit.params) == doctest::Approx(sim.points()[i].measured_us).epsilon(0.01));
}

TEST_CASE("calibrate_series: both cross-validation schemes, held-out errors small on exact data, deterministic") {
    const hw::GpuSpec gpu = hw::resolve_gpu("h100");
    SeriesSimulator truth_sim(gpu, scheduler::default_policy(), grid());
    const auto data = synthetic(truth_sim, SeriesParams{16, 48});
    SeriesSimulator a(gpu, scheduler::default_policy(), data), b(gpu, scheduler::default_policy(), data);
    SeriesFitOptions fast;
    fast.refine_iterations = 10;
    const SeriesCalibration ca = calibrate_series(a, 528, fast), cb = calibrate_series(b, 528, fast);
    REQUIRE(ca.schemes.size() == 2);
    CHECK(ca.schemes[0].splits.size() == 3);  // threads 32, 256, 512 held out in turn
    CHECK(ca.schemes[1].splits[0].split.test.size() == 3);  // blocks 1056
    CHECK(ca.schemes[1].pooled.max_abs < 2.0);
    CHECK(ca.fit.params.instr_per_term == cb.fit.params.instr_per_term);
    CHECK(ca.fit.params.term_latency_cycles == cb.fit.params.term_latency_cycles);
    CHECK(ca.errors_percent == cb.errors_percent);
    CHECK(ca.schemes[0].pooled.rms == cb.schemes[0].pooled.rms);
}
