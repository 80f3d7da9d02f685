// The event simulation reproduces the interval paper's four closed forms exactly under their assumptions.
#include <doctest/doctest.h>

#include "gpusched/models/interval_model.h"
#include "support/sim_fixtures.h"

using namespace gpusched;

namespace {
constexpr Time ns = 1000;

/// APSP Min-plus grid of ceil(n/bs)^2 blocks of bs x bs threads (row-major). The right, bottom
/// and last blocks have only n - (g-1) bs active columns/rows; a warp is active when any of its
/// 32 threads is (eqs. 7-13 count the same warps).
struct ApspGrid {
    int n, bs, g;
    ApspGrid(int n_, int bs_) : n(n_), bs(bs_), g((n_ + bs_ - 1) / bs_) {}
    [[nodiscard]] std::uint64_t blocks() const { return static_cast<std::uint64_t>(g) * static_cast<std::uint64_t>(g); }
    [[nodiscard]] int warps_per_block() const { return (bs * bs + 31) / 32; }
    [[nodiscard]] int active_warps(std::uint64_t b) const {
        const int bx = static_cast<int>(b % static_cast<std::uint64_t>(g)), by = static_cast<int>(b / static_cast<std::uint64_t>(g));
        const int cols = bx == g - 1 ? n - (g - 1) * bs : bs, rows = by == g - 1 ? n - (g - 1) * bs : bs;
        int warps = 0;
        for (int w = 0; w < warps_per_block(); ++w) {
            bool any = false;
            for (int t = 32 * w; t < std::min(32 * (w + 1), bs * bs) && !any; ++t) any = (t % bs) < cols && (t / bs) < rows;
            warps += any ? 1 : 0;
        }
        return warps;
    }
};

/// S SMs issuing 4 warp-instructions per ns: a warp of W = 1000 slots costs 250 ns of SM time.
hw::GpuSpec gpu(int sms) {
    hw::GpuSpec g = test::small_gpu(sms);
    g.warp_schedulers_per_sm = 4;
    g.issue_width = 1;
    g.clock_mhz = 1000;
    return g;
}

Time simulate(const ApspGrid& grid, int sms, const std::string& policy, bool all_full) {
    workloads::KernelLaunch k = test::launch(grid.blocks(), grid.bs * grid.bs, 0);
    k.work = std::make_shared<test::LambdaWork>(
        [](std::uint64_t) { return Time{0}; },
        [grid, all_full](std::uint64_t b, int w) { return all_full ? w : grid.active_warps(b); },
        [](std::uint64_t) { return workloads::WarpWork{1000, 0, 0}; });
    return test::run(gpu(sms), test::app_of({k}), policy, nullptr, "shared").makespan;
}
}  // namespace

TEST_CASE("static-rr = Full (eq. 15), buckets = Buckets (eqs. 16-18), sorted = Sorted, min = Min (eq. 14)") {
    // Throughput-bound warps (L = 0): an SM's busy time is (its warps) x 250 ns however they
    // overlap, so the makespan is the busiest SM's warps x 250 ns -- exactly #WarpsPerSM x T_warp x 32/cores.
    int cases = 0;
    for (int sms : {3, 7, 14}) {
        for (int bs : {8, 16, 32}) {
            for (int n : {50, 65, 80, 81, 96, 97, 100, 130}) {
                CAPTURE(sms);
                CAPTURE(bs);
                CAPTURE(n);
                const ApspGrid grid(n, bs);
                const auto occ = hw::compute_occupancy(gpu(sms), test::launch(1, bs * bs, 0).occupancy_request());
                models::IntervalKernel k{grid.blocks(), sms, occ.blocks_per_sm, grid.warps_per_block(),
                                            [grid](std::uint64_t b) { return grid.active_warps(b); }};
                const auto w = models::interval_warps_per_sm(k);
                CHECK(simulate(grid, sms, "static-rr", true) == w.full * 250 * ns);
                CHECK(simulate(grid, sms, "buckets", true) == w.buckets * 250 * ns);
                CHECK(simulate(grid, sms, "sorted", false) == w.sorted * 250 * ns);
                CHECK(simulate(grid, sms, "min", false) == w.min * 250 * ns);
                CHECK(w.min <= w.sorted);
                CHECK(w.sorted <= w.full);
                ++cases;
            }
        }
    }
    CHECK(cases == 72);
}

TEST_CASE("the paper's worked numbers") {
    // C2075-like: 14 SMs, 8 blocks of 8x8 per SM. n = 80: 10x10 = 100 blocks <= 112, one round;
    // n = 81: 11x11 = 121 > 112. Buckets: floor(121 / 112) x 8 = 8 blocks + min(121 - 112, 8) = 8 -> 16 blocks x 2 warps.
    const ApspGrid n81(81, 8);
    models::IntervalKernel k{n81.blocks(), 14, 8, 2, [n81](std::uint64_t b) { return n81.active_warps(b); }};
    const auto w = models::interval_warps_per_sm(k);
    CHECK(w.buckets == 32);
    CHECK(w.full == 9 * 2);  // ceil(121 / 14) = 9 blocks
    // n = 81: right blocks have one active column in all 8 rows: both warps (rows 0-3, 4-7) active;
    // bottom and last blocks have one active row: only warp 0.
    CHECK(n81.active_warps(10) == 2);
    CHECK(n81.active_warps(110) == 1);
    CHECK(n81.active_warps(120) == 1);
    CHECK(n81.active_warps(0) == 2);
    CHECK(models::interval_calibration_factor(10, 4, 6, 10, 20) == doctest::Approx(1.0));
    CHECK(models::interval_kernel_time(5, 2, 16, 32, 32) == doctest::Approx(37));
}
