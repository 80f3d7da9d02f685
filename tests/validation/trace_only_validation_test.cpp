// What-if from a trace alone (no Nsight Compute) against green contexts and the H200: CI holds today's accuracy.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "experiments/trace_only/comparison.h"

using namespace gpusched;

namespace {

const std::string kData = std::string(GPUSCHED_SOURCE_DIR) + "/validation/data/h100";

const validation::WhatIfPoint& point(const validation::WhatIfComparison& c, const std::string& workload, int sms) {
    for (const auto& w : c.workloads)
        if (w.name == workload)
            for (const auto& p : w.points)
                if (p.sms == sms) return p;
    FAIL("no point " << workload << " at K = " << sms);
    static validation::WhatIfPoint none;
    return none;
}

}  // namespace

TEST_CASE("trace-only what-if: the four workloads' busy-time ratios on fewer SMs and on the H200, today's error") {
    const validation::TraceOnlyComparison c = validation::validate_trace_only(kData, "most-room");
    REQUIRE(c.plain.workloads.size() == 4);  // cnn, elementwise, gemm, transformer
    REQUIRE(c.has_shapes);
    REQUIRE(c.shapes.workloads.size() == 5);  // the same four and the training step cnn_train
    for (const auto* comparison : {&c.plain, &c.shapes})
        for (const auto& w : comparison->workloads) {
            CAPTURE(w.name);
            REQUIRE(w.sms == std::vector<int>{132, 128, 96, 64, 32, 16});
            // On its own GPU the imported trace reproduces the measured busy time (the engine calibration).
            CHECK(std::abs(w.reference_busy_error_percent) < 0.5);
        }
    // Today's accuracy, docs/validation.md "What-if from the trace alone" (targets 5% / 10%, with shapes a
    // median of 3%, not met): no shapes, |predicted / measured T(K)/T(132) - 1| median 3.4%, max 19.3% (the
    // elementwise chain's softmax at 32 SMs); with shapes median 3.6%, max 11.4%.
    CHECK(c.plain.median_abs_busy_error_percent <= 3.5);
    CHECK(c.plain.max_abs_busy_error_percent <= 19.4);
    CHECK(c.shapes.median_abs_busy_error_percent <= 3.7);
    CHECK(c.shapes.max_abs_busy_error_percent <= 11.5);
    // cnn's layout transforms take the bandwidth rule, not their convolution's first input: at 16 SMs +9.5% -> +3.3%.
    CHECK(std::abs(point(c.shapes, "cnn", 16).error_percent) < 4.5);
    // The bf16 GEMM chain: on the whole GPU its tensor work ran power-limited (the 8192^3 GEMM at 1.41-1.61 GHz in
    // the recordings, its Nsight Compute cycles over its traced duration), on 16 SMs at 1.83 GHz. Without the
    // power-limited tensor clock (docs/gpu-spec.md) the chain at 16 SMs came out +29.0% (no shapes) and +18.5%
    // (shapes, FLOPs alone); with it +6.2% and -4.4%.
    CHECK(std::abs(point(c.plain, "gemm", 16).error_percent) < 7.0);
    CHECK(std::abs(point(c.shapes, "gemm", 16).error_percent) < 5.0);
    // The transformer's non-vectorized elementwise kernels (elementwise_kernel<128, 4>, unrolled_elementwise_kernel:
    // 115 of its 396 us of busy time) are SM-bound, measured 6.3-7.1x at 16 SMs; as DRAM traffic (the
    // bandwidth rule) they scaled 2.6x and the workload came out 13.1% short at 16 SMs, 16.5% at 32.
    CHECK(std::abs(point(c.plain, "transformer", 32).error_percent) < 10.0);
    CHECK(std::abs(point(c.shapes, "transformer", 32).error_percent) < 10.0);
    // The case the duration-only rule got most wrong: the elementwise chain at 16 SMs measured 3.05x; the rule
    // scaled it with its waves (7.95x), the bandwidth rule gives 2.66x (-12.8%) and the tensors' bytes 3.23x (+5.2%).
    CHECK(point(c.plain, "elementwise", 16).measured_ratio == doctest::Approx(3.046).epsilon(0.001));
    CHECK(std::abs(point(c.plain, "elementwise", 16).error_percent) < 13.0);
    CHECK(std::abs(point(c.shapes, "elementwise", 16).error_percent) < 5.5);
    // Another GPU: each H100 trace simulated on the h200 preset against the H200's trace of the same script.
    // Busy time median 3.7%, max 8.4% (target 3%), per-kernel median 7.7% (target 5%); the duration-only rule
    // said 1.000x for every workload, measured 0.74x-0.93x.
    REQUIRE(c.other.size() == 4);
    for (const auto& w : c.other) {
        CAPTURE(w.name);
        CHECK(w.reference_gpu == "h100");
        CHECK(w.other_gpu == "h200");
        CHECK(w.kernels > 0);
    }
    CHECK(c.other_median_abs_busy_error_percent <= 3.8);
    CHECK(c.other_max_abs_busy_error_percent <= 8.5);
    CHECK(c.other_kernel_median_abs_error_percent <= 7.8);
    CHECK(c.other[1].name == "elementwise");
    CHECK(c.other[1].predicted_ratio < 0.75);  // measured 0.741, predicted 0.718: the H200's 4.8 TB/s against 3.35
}
