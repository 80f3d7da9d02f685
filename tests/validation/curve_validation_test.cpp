// APSP runtime curves measured on the H100 against the simulation; CI holds today's accuracy.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/hw/input_error.h"
#include "gpusched/validation/curve_validation.h"

using namespace gpusched;

TEST_CASE("find_jumps: steps above the threshold between consecutive sizes only") {
    // 100 -> 103 is 3% (no jump at 4%), 103 -> 110 is 6.8% (jump at n=3); 5 -> 7 is not consecutive.
    const auto jumps = validation::find_jumps({{1, 100}, {2, 103}, {3, 110}, {5, 200}, {7, 400}}, 4.0);
    REQUIRE(jumps.size() == 1);
    CHECK(jumps[0].n == 3);
    CHECK(jumps[0].step_percent == doctest::Approx(100.0 * 7 / 103));
    CHECK(validation::find_jumps({{1, 100}, {2, 90}}, 4.0).empty());  // drops are not jumps
}

TEST_CASE("APSP min-plus curves on the H100: calibrated error and jump locations") {
    const std::string csv = std::string(GPUSCHED_SOURCE_DIR) + "/validation/data/h100/curves/apsp_minplus.csv";
    const auto curves = validation::validate_apsp_curves(csv, hw::resolve_gpu("h100"), "most-room");
    REQUIRE(curves.size() == 3);
    for (const auto& c : curves) {
        CAPTURE(c.block);
        CHECK(c.points.size() >= 100);
        CHECK(c.factor > 0);
        // Calibration is exact at the reference size.
        for (const auto& p : c.points)
            if (p.n == c.reference_n) CHECK(p.error_percent == doctest::Approx(0).epsilon(1e-9));
        // The work model with L2 hits, the L1 data path and per-tile latencies from the h100
        // preset: uncalibrated, the large sizes (throughput-bound, n = 1000..4000) are within
        // 1-15% of the measurement (today at most +14.8%, 16x16 at n = 2000).
        for (const auto& p : c.points)
            if (p.n >= 1000) CHECK(std::abs(p.simulated_us / p.measured_us - 1) <= 0.16);
        // f > 1 still: Init's host-side start and a per-launch cost of ~1-2 us that the measured
        // times hold (docs/validation.md) are not simulated; today 1.46 / 1.30 / 1.11.
        CHECK(c.factor < 1.6);
    }
    // Today's accuracy (docs/validation.md), held slightly above: median |error| 1.2% / 2.0% /
    // 2.3% for 8x8 / 16x16 / 32x32; measured jumps located 8/9, 8/11, 5/5; simulated jumps
    // located 10/13 (41, 57 and 113 are tile steps the measurement takes in under 4%), 8/8, 5/5.
    CHECK(curves[0].block == 8);
    CHECK(curves[0].median_abs_error_percent <= 1.5);
    CHECK(curves[1].median_abs_error_percent <= 2.3);
    CHECK(curves[2].median_abs_error_percent <= 2.5);
    CHECK(curves[0].measured_jumps_located >= 8);
    CHECK(curves[0].simulated_jumps_located >= 10);
    CHECK(curves[1].measured_jumps_located >= 8);
    for (std::size_t i = 1; i < 3; ++i)
        CHECK(curves[i].simulated_jumps_located == static_cast<int>(curves[i].simulated_jumps.size()));
    CHECK(curves[2].measured_jumps_located == static_cast<int>(curves[2].measured_jumps.size()));
    CHECK(curves[2].measured_jumps.size() >= 5);
}

TEST_CASE("Floyd-Warshall curve on the H100: calibrated at n = 128, error grows at n = 512, 1000") {
    const std::string dir = std::string(GPUSCHED_SOURCE_DIR) + "/validation/data/h100/curves";
    const auto curves = validation::validate_curve_dir(dir, hw::resolve_gpu("h100"), "most-room");
    REQUIRE(curves.size() == 4);  // three min-plus block sizes, then Floyd-Warshall
    const auto& fw = curves[3];
    CHECK(fw.kernel == "apsp-fw");
    CHECK(fw.block == 16);
    REQUIRE(fw.points.size() == 5);  // n = 64, 128, 256, 512, 1000: no consecutive sizes, no jumps
    CHECK(fw.reference_n == 128);    // the median of the sizes <= 200
    CHECK(fw.measured_jumps.empty());
    // Today (docs/validation.md): f = 1.75, errors -3.0 / 0 / +3.3 / +21 / +61% (the simulation's
    // launch costs 1.9 us where the host-bound measurement costs 3.3-3.5 us, so f scales the
    // throughput-bound n = 1000 too far). Held slightly above.
    CHECK(fw.factor == doctest::Approx(1.75).epsilon(0.05));
    CHECK(fw.median_abs_error_percent <= 4.0);
    CHECK(fw.max_abs_error_percent <= 65.0);
}

TEST_CASE("curve CSV errors name the file and line") {
    const std::string dir = std::string(GPUSCHED_SOURCE_DIR) + "/tests/validation/data/";
    CHECK_THROWS_AS(validation::validate_apsp_curves(dir + "nope.csv", hw::resolve_gpu("h100"), "most-room"), InputError);
    CHECK_THROWS_WITH_AS(validation::validate_apsp_curves(dir + "curve_bad_n.csv", hw::resolve_gpu("h100"), "most-room"),
                         doctest::Contains("curve_bad_n.csv:4: n must be"), InputError);
    CHECK_THROWS_WITH_AS(validation::validate_apsp_curves(dir + "curve_no_median.csv", hw::resolve_gpu("h100"), "most-room"),
                         doctest::Contains("missing column 'median_ms'"), InputError);
}
