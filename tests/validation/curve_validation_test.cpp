// APSP runtime curves measured on the H100 against the simulation; CI holds today's accuracy.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/support/input_error.h"
#include "experiments/curves/comparison.h"

using namespace gpusched;

TEST_CASE("find_jumps: steps above the threshold between consecutive sizes only") {
    // 100 -> 103 is 3% (no jump at 4%), 103 -> 110 is 6.8% (jump at n=3); 5 -> 7 is not consecutive.
    const auto jumps = validation::find_jumps({{1, 100}, {2, 103}, {3, 110}, {5, 200}, {7, 400}}, 4.0);
    REQUIRE(jumps.size() == 1);
    CHECK(jumps[0].n == 3);
    CHECK(jumps[0].step_percent == doctest::Approx(100.0 * 7 / 103));
    CHECK(validation::find_jumps({{1, 100}, {2, 90}}, 4.0).empty());  // drops are not jumps
}

namespace {

/// Every curve of the committed H100 data, simulated once for all test cases below (seconds in
/// Release, a minute under sanitizers): host-calls min-plus 8/16/32, FW, then the same queued.
const std::vector<validation::CurveComparison>& h100_curves() {
    static const auto curves = validation::validate_curve_dir(
        std::string(GPUSCHED_SOURCE_DIR) + "/validation/data/h100/curves", hw::resolve_gpu("h100"), "most-room");
    return curves;
}

}  // namespace

TEST_CASE("APSP min-plus curves on the H100, launched by the host while timed: calibrated error") {
    REQUIRE(h100_curves().size() == 8);
    const std::vector<validation::CurveComparison> curves(h100_curves().begin(), h100_curves().begin() + 3);
    for (const auto& c : curves) {
        CAPTURE(c.block);
        CHECK(c.issue == "host-calls");
        CHECK(c.points.size() >= 100);
        // Calibration is exact at the reference size.
        for (const auto& p : c.points)
            if (p.n == c.reference_n) CHECK(p.error_percent == doctest::Approx(0).epsilon(1e-9));
        // The work model with L2 hits, the L1 data path and per-tile latencies from the h100
        // preset: uncalibrated, the large sizes (throughput-bound, n = 1000..4000) are within
        // 16% of the measurement (today at most +15.3%, 8x8 at n = 1000).
        for (const auto& p : c.points)
            if (p.n >= 1000) CHECK(std::abs(p.simulated_us / p.measured_us - 1) <= 0.16);
    }
    // With the host's launch interval (3466 ns per call, from launch_rate/, not from these curves)
    // the simulated small sizes are host-bound as measured, and with the SASS tile path, the
    // measured tile fill and the 182 ns block dispatch latency f = 0.98 / 1.03 / 1.00 (1.26 /
    // 1.11 / 1.00 without the first two). Median |error| today 1.5% / 1.2% / 1.3%, max 13% / 20% /
    // 9.5% (all at large n; 32x32 was 4.1% before the L1 queue: two 32-warp blocks per SM queue as
    // two customers). Held slightly above.
    CHECK(curves[0].block == 8);
    CHECK(curves[0].factor == doctest::Approx(0.98).epsilon(0.03));
    CHECK(curves[1].factor == doctest::Approx(1.03).epsilon(0.03));
    CHECK(curves[2].factor == doctest::Approx(1.00).epsilon(0.03));
    CHECK(curves[0].median_abs_error_percent <= 1.5);
    CHECK(curves[1].median_abs_error_percent <= 1.5);
    CHECK(curves[2].median_abs_error_percent <= 1.5);
    CHECK(curves[0].max_abs_error_percent <= 14.0);
    CHECK(curves[1].max_abs_error_percent <= 20.0);
    CHECK(curves[2].max_abs_error_percent <= 10.0);
    // The host-bound sweeps jump by more than 4% at n where three sweeps disagree (noise, see
    // curves/repeats/); the launch-count steps are located in every block size.
    for (const auto& c : curves)
        for (int n : {66, 130}) {
            CAPTURE(n);
            CHECK(std::any_of(c.measured_jumps.begin(), c.measured_jumps.end(), [&](const auto& j) { return j.n == n; }));
            CHECK(std::any_of(c.simulated_jumps.begin(), c.simulated_jumps.end(), [&](const auto& j) { return j.n == n; }));
        }
    CHECK(curves[2].measured_jumps_located == static_cast<int>(curves[2].measured_jumps.size()));
    // Two more sweeps of the same kernels (curves/repeats/) agree on fewer jumps: today 66 81 97
    // 130 (8x8), 66 81 113 129 130 (16x16), 65 66 97 129 130 (32x32). The simulation locates every
    // one of them (8x8's 97 only since the SASS tile path and the measured tile fill).
    for (const auto& c : curves) {
        CHECK(c.repeat_sweeps == 2);
        CHECK(c.reproducible_jumps.size() >= 4);
        CHECK(c.reproducible_jumps_located == static_cast<int>(c.reproducible_jumps.size()));
    }
}

TEST_CASE("APSP curves measured with every launch queued first: every jump located") {
    const auto& curves = h100_curves();
    REQUIRE(curves.size() == 8);  // host-calls: min-plus 8/16/32, FW; then the same queued
    const auto& q8 = curves[4];
    const auto& q16 = curves[5];
    const auto& q32 = curves[6];
    CHECK(q8.issue == "queued");
    CHECK(q8.block == 8);
    CHECK(q32.block == 32);
    // Without host noise the curves step at every tile-count change (8x8: 41, 49, ..., 137;
    // 16x16: 49, 65, ...; 32x32: 65, 97, 129) and launch-count change (66, 130). Today every
    // measured jump is located (8x8 13/13, 16x16 8/8, 32x32 5/5; 8x8's 137 only with the
    // measured tile fill); every simulated jump is located except 8x8's 89 and 121 (measured
    // there: 4.0% and 3.3%).
    for (const auto* c : {&q16, &q32}) {
        CHECK(c->measured_jumps.size() >= 5);
        CHECK(c->measured_jumps_located == static_cast<int>(c->measured_jumps.size()));
        CHECK(c->simulated_jumps_located == static_cast<int>(c->simulated_jumps.size()));
    }
    CHECK(q8.measured_jumps_located == static_cast<int>(q8.measured_jumps.size()));
    CHECK(q8.simulated_jumps_located >= 13);
    // Median |error| today 1.1% / 2.0% / 2.5%; f = 0.98 / 1.05 / 1.02; max 14% / 22% / 12% (large n;
    // 32x32 was 5.2% before the L1 queue).
    CHECK(q8.median_abs_error_percent <= 1.2);
    CHECK(q16.median_abs_error_percent <= 2.3);
    CHECK(q32.median_abs_error_percent <= 2.8);
    CHECK(q8.max_abs_error_percent <= 15.0);
    CHECK(q16.max_abs_error_percent <= 22.0);
    CHECK(q32.max_abs_error_percent <= 12.5);
}

TEST_CASE("Floyd-Warshall curve on the H100: calibrated at n = 128, 1001 host-issued launches at n = 1000") {
    const auto& curves = h100_curves();
    REQUIRE(curves.size() == 8);
    for (const auto* fw : {&curves[3], &curves[7]}) {
        CHECK(fw->kernel == "apsp-fw");
        CHECK(fw->block == 16);
        REQUIRE(fw->points.size() == 5);  // n = 64, 128, 256, 512, 1000: no consecutive sizes, no jumps
        CHECK(fw->reference_n == 128);    // the median of the sizes <= 200
        CHECK(fw->measured_jumps.empty());
    }
    // Today (docs/validation.md): host-calls f = 0.95, max error 9% (was f = 1.75, +61% at
    // n = 1000 before the host's launch interval); queued f = 1.30, max 29% (uncalibrated -0.7% at
    // n = 1000, 16-23% short at n <= 512). Held slightly above.
    CHECK(curves[3].factor == doctest::Approx(0.95).epsilon(0.05));
    CHECK(curves[3].median_abs_error_percent <= 3.0);
    CHECK(curves[3].max_abs_error_percent <= 10.0);
    CHECK(curves[7].max_abs_error_percent <= 30.0);
}

TEST_CASE("curve CSV errors name the file and line") {
    const std::string dir = std::string(GPUSCHED_SOURCE_DIR) + "/tests/validation/data/";
    CHECK_THROWS_AS(validation::validate_apsp_curves(dir + "nope.csv", hw::resolve_gpu("h100"), "most-room"), InputError);
    CHECK_THROWS_WITH_AS(validation::validate_apsp_curves(dir + "curve_bad_n.csv", hw::resolve_gpu("h100"), "most-room"),
                         doctest::Contains("curve_bad_n.csv:4: n must be"), InputError);
    CHECK_THROWS_WITH_AS(validation::validate_apsp_curves(dir + "curve_no_median.csv", hw::resolve_gpu("h100"), "most-room"),
                         doctest::Contains("missing column 'median_ms'"), InputError);
}

TEST_CASE("mark_reproducible_jumps: a measured jump counts only if every repeated sweep has it at the same n") {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / "gpusched_reproducible_jumps_test";
    fs::create_directories(dir);
    // Repeat sweep, block 8: 100 -> 110 at n = 3 (10%, a jump), 110 -> 111 at n = 4 (0.9%, none),
    // 111 -> 130 at n = 5 (17%, a jump). Block 16's rows must be ignored.
    {
        std::ofstream f(dir / "repeat.csv");
        f << "n,block,median_ms\n2,8,0.100\n3,8,0.110\n4,8,0.111\n5,8,0.130\n3,16,0.5\n4,16,0.9\n";
    }
    validation::CurveComparison c;
    c.block = 8;
    c.measured_jumps = {{3, 10}, {4, 8}, {5, 17}};  // 4 is not in the repeat: not reproducible
    c.simulated_jumps = {{6, 9}};                    // within one step of 5 only
    validation::mark_reproducible_jumps(c, {(dir / "repeat.csv").string()});
    CHECK(c.repeat_sweeps == 1);
    REQUIRE(c.reproducible_jumps.size() == 2);
    CHECK(c.reproducible_jumps[0].n == 3);
    CHECK(c.reproducible_jumps[1].n == 5);
    CHECK(c.reproducible_jumps_located == 1);
    {
        std::ofstream f(dir / "bad.csv");
        f << "n,block,median_ms\n2,8,-1\n";
    }
    CHECK_THROWS_WITH_AS(validation::mark_reproducible_jumps(c, {(dir / "bad.csv").string()}),
                         doctest::Contains("bad.csv:2: median_ms must be"), InputError);
    fs::remove_all(dir);
}
