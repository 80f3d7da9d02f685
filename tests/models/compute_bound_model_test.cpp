// The compute-bound paper's eqs. 1-3, with the paper's Kepler 20 numbers.
#include <doctest/doctest.h>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/support/input_error.h"
#include "gpusched/models/compute_bound_model.h"

using namespace gpusched;

namespace {
models::ComputeBoundInputs k20(std::uint64_t blocks, std::uint64_t threads) {
    const hw::GpuSpec g = hw::resolve_gpu("k20");
    return {1.0, blocks, threads, g.sm_count, g.max_blocks_per_sm, g.max_warps_per_sm, g.warp_size};
}
}  // namespace

TEST_CASE("Kepler 20: the thread capacity is 64 x 32 x 13 = 26,624 and 16 x 13 = 208 blocks are resident") {
    // beta = 208, theta = 128: 26,624 threads = exactly the capacity (the paper's example):
    // xi_rb = tau (208 <= 208), xi_rw = 1 tau, first case: kappa = 1 / (1 + 1) = 0.5.
    const auto at = models::compute_bound_model(k20(208, 128));
    CHECK_FALSE(at.over_capacity);
    CHECK(at.xi_rb == doctest::Approx(1.0));
    CHECK(at.xi_rw == doctest::Approx(1.0));
    CHECK(at.kappa == doctest::Approx(0.5));
    // beta = 416, theta = 128: twice the capacity; xi_rb = ceil(416/208) = 2 tau, xi_rw = 2 tau:
    // kappa = 1 / (2 + 2) = 0.25, time = 4 tau.
    const auto over = models::compute_bound_model(k20(416, 128));
    CHECK(over.over_capacity);
    CHECK(over.xi_rb == doctest::Approx(2.0));
    CHECK(over.kappa == doctest::Approx(0.25));
    CHECK(over.time == doctest::Approx(4.0));
    // beta = 64, theta = 32: 2048 threads, 64 blocks: xi_rw = 2048 / 26624 tau.
    const auto small = models::compute_bound_model(k20(64, 32));
    CHECK(small.time == doctest::Approx(1.0 + 2048.0 / 26624.0));
    CHECK_THROWS_AS(models::compute_bound_model(k20(0, 32)), InputError);
}
