// The interval model's f: the paper's one-point rule and the least-squares fits, on hand-made terms.
#include <doctest/doctest.h>

#include "gpusched/calibrate/interval_calibration.h"
#include "gpusched/hw/gpu_spec_io.h"

using namespace gpusched::calibrate;

namespace {

IntervalTerms terms(double launches, double issue_us) {
    IntervalTerms t;
    t.launches = launches;
    t.launch_us = 1.5;
    t.issue_us = issue_us;
    t.average_us = launches * t.launch_us + issue_us;
    return t;
}

ApspMeasurement measured(std::int64_t n, double us) { return ApspMeasurement{"minplus", n, 16, us}; }

}  // namespace

TEST_CASE("least squares recovers f, and f with a per-launch time, exactly from exact data") {
    const std::vector<IntervalTerms> t = {terms(6, 10), terms(7, 30), terms(8, 100), terms(10, 1000)};
    const std::vector<std::size_t> all = {0, 1, 2, 3};
    std::vector<ApspMeasurement> m;
    for (std::size_t i = 0; i < t.size(); ++i) m.push_back(measured(static_cast<std::int64_t>(i), 2.5 * t[i].average_us));
    const IntervalFactor f = fit_interval(t, m, all, IntervalMethod::factor);
    CHECK(f.f == doctest::Approx(2.5).epsilon(1e-12));
    // T = 3 us per launch + 1.7 x issue: two unknowns, four equations, exact solution.
    for (std::size_t i = 0; i < t.size(); ++i) m[i].measured_us = 3 * t[i].launches + 1.7 * t[i].issue_us;
    const IntervalFactor fl = fit_interval(t, m, all, IntervalMethod::factor_launch);
    CHECK(fl.f == doctest::Approx(1.7).epsilon(1e-9));
    REQUIRE(fl.launch_us);
    CHECK(*fl.launch_us == doctest::Approx(3).epsilon(1e-9));
    CHECK(!f.launch_us);
    CHECK(interval_predict_us(t[2], fl) == doctest::Approx(3 * 8 + 170));
}

TEST_CASE("one-point f: the training point of median measured time, as in the paper (T_meas / mean of the four)") {
    const std::vector<IntervalTerms> t = {terms(6, 10), terms(7, 30), terms(8, 100)};
    const std::vector<ApspMeasurement> m = {measured(40, 50), measured(41, 200), measured(42, 120)};
    // median measured time: 120 us at index 2; its mean closed form 8 x 1.5 + 100 = 112.
    const IntervalFactor f = fit_interval(t, m, {0, 1, 2}, IntervalMethod::one_point);
    CHECK(f.f == doctest::Approx(120.0 / 112.0));
    CHECK(fit_interval(t, m, {0, 1}, IntervalMethod::one_point).f == doctest::Approx(50.0 / 19.0));
}

TEST_CASE("interval_terms matches the closed form of a one-wave case by hand") {
    const auto gpu = gpusched::hw::resolve_gpu("h100");
    // n = 32, 16x16 blocks: GW = 2, 4 blocks of 8 warps on 132 SMs, 5 launches (ceil(log2 31)).
    // Every warp issues W = GW (4 BS + 10) + 3.5 = 2 x 74 + 3.5 = 151.5 slots; Min spreads 32
    // warps over 132 SMs (1 per SM); Sorted and Full put one 8-warp block on an SM; Buckets
    // gives the first SM a bucket of k = 8 blocks per SM, i.e. all 4 blocks (32 warps).
    const IntervalTerms t = interval_terms(gpu, "apsp-minplus", 32, 16);
    CHECK(t.launches == 5);
    const double warp_us = 151.5 / (4 * 1980.0);
    CHECK(t.issue_us == doctest::Approx(5 * warp_us * (1 + 8 + 8 + 32) / 4.0));
    CHECK(t.average_us == doctest::Approx(t.issue_us + 5 * 1.6));
}

TEST_CASE("calibrate_interval: three methods, each under the schemes that can be formed") {
    const auto gpu = gpusched::hw::resolve_gpu("h100");
    std::vector<ApspMeasurement> m;
    for (const std::int64_t n : {40, 50, 60, 70, 80, 300}) m.push_back(measured(n, 10.0 + n));
    const IntervalCalibration c = calibrate_interval(gpu, gpusched::workloads::KernelSpec::parse("apsp-minplus", "kernel"), m, 100, 3);
    REQUIRE(c.methods.size() == 3);
    REQUIRE(c.methods[0].schemes.size() == 2);  // one block size: no leave-one-block-out
    CHECK(c.methods[0].schemes[0].splits == 3);
    CHECK(c.methods[0].schemes[0].pooled.count == 6);
    CHECK(c.methods[0].schemes[1].pooled.count == 1);
    CHECK(c.methods[1].in_sample.count == 6);
}
