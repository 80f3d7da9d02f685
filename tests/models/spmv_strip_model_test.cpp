// SpMV strip model: strip sizes from the presets, target features, and each format's estimate on exact-line benchmark data.
#include <doctest/doctest.h>

#include <vector>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/support/input_error.h"
#include "gpusched/models/spmv_strip_model.h"

using namespace gpusched;
using namespace gpusched::models;

namespace {

/// Benchmark times that lie exactly on the model's lines, so every fit is exact:
/// CSR T = (1 + 0.01 P)(2 + 3 I); ELL T = (0.1 + 0.05 I) P + 3 + 2 I; COO T = 5 + 0.5 x (I x P).
std::vector<SpmvBenchmarkPoint> exact_points() {
    std::vector<SpmvBenchmarkPoint> points = spmv_benchmark_plan();
    for (auto& p : points) {
        const auto i = static_cast<double>(p.strips), x = static_cast<double>(p.nnz_per_row);
        if (p.format == "csr") p.time_us = (1 + 0.01 * x) * (2 + 3 * i);
        if (p.format == "ell") p.time_us = (0.1 + 0.05 * i) * x + 3 + 2 * i;
        if (p.format == "coo") p.time_us = 5 + 0.5 * i * x;
    }
    return points;
}

const SpmvStripSizes kSizes{10, 100, 50};

}  // namespace

TEST_CASE("strip model: strip sizes from the GPU's limits (Section III-B)") {
    // C2050: 14 SMs, 48 warps and 1536 threads per SM.
    const SpmvStripSizes c = spmv_strip_sizes(hw::resolve_gpu("c2050"));
    CHECK(c.csr == 14 * 48);
    CHECK(c.ell == 14 * 48 * 32);
    CHECK(c.coo == 14 * 1536);
    const SpmvStripSizes h = spmv_strip_sizes(hw::resolve_gpu("h100"));
    CHECK(h.csr == 132 * 64);
    CHECK(spmv_benchmark_rows(h, {"ell", 3, 16, 0}) == 3 * 132 * 64 * 32);
}

TEST_CASE("strip model: the benchmark plan and uniform matrices (Section III-C2)") {
    const auto plan = spmv_benchmark_plan();
    CHECK(plan.size() == 10 * 7 + 10 * 6 + 10);  // CSR I 1..10 x 7 P_NZ, ELL x 6, COO 10
    CHECK(spmv_uniform_offsets(3, 4) == std::vector<std::uint64_t>{0, 4, 8, 12});
}

TEST_CASE("strip model: target features: the mode (smallest on ties) and the maximum row length") {
    const SpmvTargetFeatures t = spmv_target_features({0, 1, 3, 5, 8, 11, 21});  // lengths 1,2,2,3,3,10
    CHECK(t.rows == 6);
    CHECK(t.nnz == 21);
    CHECK(t.mode_row_length == 2);
    CHECK(t.max_row_length == 10);
}

TEST_CASE("strip model: each format's estimate reproduces data that lies on its lines") {
    const SpmvStripModel model(kSizes, 1024, exact_points());
    SpmvTargetFeatures t;
    t.rows = 95;  // CSR: ceil(95 / 10) = 10 strips; ELL: ceil(95/100) = 1
    t.nnz = 1234;
    t.mode_row_length = 100;
    t.max_row_length = 40;
    // CSR: (t0 / t1) t2 = (1 + 0.01 x0)(2 + 3 y0) = 2 x 32 = 64.
    const SpmvStripEstimate csr = model.csr(t);
    CHECK(csr.strips == 10);
    CHECK(csr.time_us == doctest::Approx(64));
    // Above the threshold (x0 = 3000): the second line pair; (1 + 30)(2 + 30) = 992.
    SpmvTargetFeatures wide = t;
    wide.mode_row_length = 3000;
    CHECK(model.csr(wide).time_us == doctest::Approx(31 * 32));
    // ELL: Y = 3 (250 rows), X = 40: f(3) 40 + g(3) = 0.25 x 40 + 9 = 19.
    SpmvTargetFeatures e = t;
    e.rows = 250;
    const SpmvStripEstimate ell = model.ell(e);
    CHECK(ell.strips == 3);
    CHECK(ell.time_us == doctest::Approx(19));
    // COO: I = ceil(1234 / 50) = 25: 5 + 0.5 x 25 = 17.5.
    const SpmvStripEstimate coo = model.coo(t);
    CHECK(coo.strips == 25);
    CHECK(coo.time_us == doctest::Approx(17.5));
    // HYB: ELL at width 40 (19) plus COO of 1234 leftover entries (17.5).
    const SpmvStripEstimate hyb = model.hyb(e, 40, 1234);
    CHECK(hyb.time_us == doctest::Approx(36.5));
    CHECK(hyb.coo_strips == 25);
    CHECK(model.hyb(e, 40, 0).time_us == doctest::Approx(19));
    CHECK(model.hyb(e, 0, 1234).time_us == doctest::Approx(17.5));
}

TEST_CASE("strip model: too few benchmark points is an InputError naming the relationship") {
    std::vector<SpmvBenchmarkPoint> points = {{"coo", 1, 10, 3.0}};
    const SpmvStripModel model(kSizes, 1024, points);
    SpmvTargetFeatures t;
    t.rows = 10;
    t.nnz = 100;
    CHECK_THROWS_WITH_AS((void)model.coo(t), doctest::Contains("COO relationship-1 needs benchmark times"), InputError);
    CHECK_THROWS_WITH_AS((void)model.ell(t), doctest::Contains("ELL relationship-2 (slope over strips) needs benchmark times"), InputError);
}

TEST_CASE("strip model: measured benchmark times from a CSV file, errors with FILE:LINE") {
    const std::string dir = std::string(GPUSCHED_SOURCE_DIR) + "/tests/workloads/data/spmv/";
    const auto points = read_spmv_benchmarks(dir + "benchmarks_coo.csv");  // columns in another order
    REQUIRE(points.size() == 10);
    CHECK(points[0].format == "coo");
    CHECK(points[0].nnz_per_row == 10);
    CHECK(points[9].time_us == doctest::Approx(55));
    // T = 5 + 0.5 I: 1234 non-zeros in strips of 50 -> I = 25 -> 17.5.
    SpmvTargetFeatures t;
    t.rows = 10;
    t.nnz = 1234;
    CHECK(SpmvStripModel(kSizes, 1024, points).coo(t).time_us == doctest::Approx(17.5));
    CHECK_THROWS_WITH_AS(read_spmv_benchmarks(dir + "benchmarks_bad.csv"),
                         doctest::Contains("benchmarks_bad.csv:3: time_us: expected a positive number, got '-3'"),
                         InputError);
    CHECK_THROWS_WITH_AS(read_spmv_benchmarks(dir + "lengths_1_2_3_10.mtx"),
                         doctest::Contains("lengths_1_2_3_10.mtx:1: missing column 'format'"), InputError);
}
