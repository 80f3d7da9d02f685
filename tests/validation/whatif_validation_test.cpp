// What-if on fewer SMs against the H100's green contexts: CI holds today's accuracy of the predicted T(K)/T(132).
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "gpusched/support/input_error.h"
#include "experiments/whatif/comparison.h"

using namespace gpusched;

namespace {

const std::string kData = std::string(GPUSCHED_SOURCE_DIR) + "/validation/data/h100/";

}  // namespace

TEST_CASE("what-if on fewer SMs: four PyTorch workloads and the own kernels against green contexts, today's error") {
    const auto c = validation::validate_what_if(kData + "torch", kData + "green", "most-room");
    REQUIRE(c.workloads.size() == 4);  // cnn, elementwise, gemm, transformer
    CHECK(c.sm_rule.find("partition_order") != std::string::npos);
    for (const auto& w : c.workloads) {
        CAPTURE(w.name);
        CHECK(w.gpu == "h100");
        REQUIRE(w.sms == std::vector<int>{132, 128, 96, 64, 32, 16});
        for (const auto& p : w.points) CHECK(p.same_kernels);  // every green-context run has the whole GPU's kernels
        // The reference reproduction (calibration on the same measurement): busy time within 3%.
        CHECK(std::abs(w.reference_busy_error_percent) < 1.5);
        CHECK(w.points.front().predicted_ratio == 1.0);
    }
    // Today's accuracy (docs/validation.md "What-if on fewer SMs"; targets 5% / 10% and 2% per kernel on
    // the reference, met with the no-overlap rule and the engine calibration): the busy-time ratio's
    // median |error| 2.9%, max 9.5%; per kernel on the whole GPU median 0.00%, max 0.08%; the own
    // kernels (APSP queued curves, series) median 1.24%, max 11.1% (series t256 x 132 blocks at K = 64;
    // APSP max 10.8%). The series is simulated with the series section's work keys (green/ has none of
    // its own): with the generator's defaults its max was 13.9%.
    CHECK(c.median_abs_busy_error_percent <= 3.2);
    CHECK(c.max_abs_busy_error_percent <= 10.0);
    CHECK(c.reference_kernel_median_abs_error_percent <= 0.1);
    CHECK(c.reference_kernel_max_abs_error_percent <= 2.0);
    CHECK(c.own_median_abs_error_percent <= 1.25);
    CHECK(c.own_max_abs_error_percent <= 11.2);
    CHECK(c.own_series_work_file == kData + "curves/binomial_work.txt");
    // The worst series point with the defaults, t32 x 396 blocks at K = 32 (13 one-warp blocks on the busiest
    // SM against 3 on the whole GPU): measured 1.378x; predicted 1.568x with the defaults (+13.8%), 1.386x
    // with the measured keys (+0.6%).
    for (const auto& p : c.own)
        if (p.experiment == "series t32" && p.point == "blocks=396" && p.sms == 32) CHECK(std::abs(p.error_percent) < 8.0);
    // Kernels whose wave count changes with K (docs/validation.md "Kernels whose wave count changes"): 111 of
    // 590 (kernel, K) pairs within 3% today, median |error| 11.8% (114 / 11.9% before issue_fair_warps).
    CHECK(c.wave_change_kernels == 590);
    CHECK(c.wave_change_within_3_percent >= 111);
    CHECK(c.wave_change_median_abs_error_percent <= 11.9);
    // The measurement's own spread, read from the committed traces (no simulation): steps 2 and 4 of the
    // same runs against step 3, each pair's T(K)/T(132): 481 + 462 of 2 x 590 within 3%.
    CHECK(c.wave_change_step_comparisons == 1180);
    CHECK(c.wave_change_steps_within_3_percent == 943);
    // The persistent cuBLAS GEMM (132 blocks, one per SM) at 128 SMs: one pool, not two waves (measured 1.04x).
    const auto& gemm = c.workloads[2];
    REQUIRE(gemm.name == "gemm");
    const auto& first = gemm.kernels.front();
    CHECK(first.blocks == 132);
    // Its non-DRAM part grows by the pool's 132/128, its DRAM part (31% of it) by 128 SMs' DRAM time,
    // the same 3000 GB/s: so above 1 and at most 132/128 (two waves would be 2x).
    const double ratio = first.simulated_us[1] / first.simulated_us[0];
    CHECK(ratio > 1.0);
    CHECK(ratio <= 132.0 / 128 + 1e-3);
}

TEST_CASE("what-if: a directory without traces names itself") {
    CHECK_THROWS_WITH_AS(validation::validate_what_if(kData + "spmv", "", "most-room"),
                         doctest::Contains("spmv: no traces named WORKLOAD_kK.json.gz"), InputError);
}
