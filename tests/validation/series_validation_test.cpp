// The binomial-series table measured on the H100 against the simulation; CI holds today's accuracy.
#include <doctest/doctest.h>

#include <string>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/hw/input_error.h"
#include "gpusched/validation/series_validation.h"

using namespace gpusched;

TEST_CASE("binomial series on the H100: one-point calibration and today's error") {
    const std::string csv = std::string(GPUSCHED_SOURCE_DIR) + "/validation/data/h100/curves/binomial.csv";
    const auto s = validation::validate_series(csv, hw::resolve_gpu("h100"), "most-room");
    REQUIRE(s.points.size() == 60);
    for (const auto& p : s.points)
        if (p.blocks == s.reference_blocks && p.threads == s.reference_threads)
            CHECK(p.error_percent == doctest::Approx(0).epsilon(1e-9));
    // docs/validation.md: median |error| 13.4%. The model has no latency floor for the series
    // (term_latency_cycles = 0), so few warps per SM run too fast: 132 blocks x 32 threads is
    // 82% short. Many warps per SM run ~20% slow.
    CHECK(s.median_abs_error_percent <= 14.0);
    CHECK(s.points.front().threads == 32);
    CHECK(s.points.front().blocks == 132);
    CHECK(s.points.front().error_percent < -50.0);
    CHECK(s.points.back().error_percent > 0.0);
}

TEST_CASE("series CSV errors name the file and line") {
    const std::string dir = std::string(GPUSCHED_SOURCE_DIR) + "/tests/validation/data/";
    CHECK_THROWS_WITH_AS(validation::validate_series(dir + "series_bad_threads.csv", hw::resolve_gpu("h100"), "most-room"),
                         doctest::Contains("series_bad_threads.csv:3: threads must be an integer 1..1024"), InputError);
    CHECK_THROWS_WITH_AS(validation::validate_series(dir + "series_text.csv", hw::resolve_gpu("h100"), "most-room"),
                         doctest::Contains("series_text.csv:2: median_ms must be a number"), InputError);
}
