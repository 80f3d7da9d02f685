// The `shared` execution model against hand-derived issue-slot arithmetic.
#include <doctest/doctest.h>

#include "gpusched/support/input_error.h"
#include "support/sim_fixtures.h"

using namespace gpusched;

namespace {
constexpr Time ns = 1000;  // picoseconds

/// One SM issuing C = 4 x 1 warp-instructions per cycle at 1000 MHz: 4 slots per ns.
hw::GpuSpec one_sm() {
    hw::GpuSpec g = test::small_gpu(1);
    g.warp_schedulers_per_sm = 4;
    g.issue_width = 1;
    g.clock_mhz = 1000;
    return g;
}

workloads::KernelLaunch kernel(std::uint64_t blocks, int threads, double slots, Time latency, int active = -1) {
    auto k = test::launch(blocks, threads, 0);
    k.work = std::make_shared<test::LambdaWork>(
        [](std::uint64_t) { return Time{0}; },
        [active](std::uint64_t, int w) { return active < 0 ? w : active; },
        [slots, latency](std::uint64_t) { return workloads::WarpWork{slots, latency, 0}; });
    return k;
}

Time makespan(const hw::GpuSpec& gpu, std::vector<workloads::KernelLaunch> launches) {
    return test::run(gpu, test::app_of(std::move(launches)), "most-room", nullptr, "shared").makespan;
}
}  // namespace

TEST_CASE("throughput-bound: n warps x W slots take n W / C cycles (the paper's T_warp x WarpsPerSM x 32/cores)") {
    // 8 warps x 1000 slots / 4 slots per cycle = 2000 cycles = 2000 ns at 1 GHz.
    CHECK(makespan(one_sm(), {kernel(1, 256, 1000, 0)}) == 2000 * ns);
    // Linear in warps per SM: 3 such blocks resident together: 24 x 1000 / 4 = 6000 ns.
    CHECK(makespan(one_sm(), {kernel(3, 256, 1000, 0)}) == 6000 * ns);
}

TEST_CASE("latency-bound warps are flat in warps per SM until the issue rate binds") {
    // L = 10 us, W = 1000: a warp may issue at most 1000 / 10000 ns = 0.1 slots/ns.
    // k blocks of 8 warps share 4 slots/ns: 0.5/k per warp; latency-bound while 0.5/k >= 0.1, i.e. k <= 5.
    for (int k = 1; k <= 5; ++k) CHECK(makespan(one_sm(), {kernel(static_cast<std::uint64_t>(k), 256, 1000, 10000 * ns)}) == 10000 * ns);
    // k = 8: 0.5/8 = 0.0625 slots/ns -> 1000 / 0.0625 = 16000 ns.
    CHECK(makespan(one_sm(), {kernel(8, 256, 1000, 10000 * ns)}) == 16000 * ns);
}

TEST_CASE("inactive warps retire at once and do not take issue slots") {
    // 8-warp block with 4 active warps: 4 x 1000 / 4 = 1000 ns.
    CHECK(makespan(one_sm(), {kernel(1, 256, 1000, 0, 4)}) == 1000 * ns);
    // No active warp at all: the block ends as soon as it starts.
    CHECK(makespan(one_sm(), {kernel(1, 256, 1000, 0, 0)}) == 0);
}

TEST_CASE("when a neighbour ends, the remaining blocks speed up") {
    // Block 0: W = 500, block 1: W = 1000, 8 warps each, together on one SM from t = 0.
    // 16 warps share 4 slots/ns: 0.25 each. Block 0 ends at 500 / 0.25 = 2000 ns; block 1 has
    // 500 slots left, now alone: 0.5/ns -> 1000 ns more: 3000 ns (= 12000 warp-slots / 4).
    auto k = test::launch(2, 256, 0);
    k.work = std::make_shared<test::LambdaWork>([](std::uint64_t) { return Time{0}; }, nullptr,
                                                [](std::uint64_t b) { return workloads::WarpWork{b == 0 ? 500.0 : 1000.0, 0, 0}; });
    const auto r = test::run(one_sm(), test::app_of({k}), "most-room", nullptr, "shared");
    CHECK(r.makespan == 3000 * ns);
    for (const auto& b : r.blocks) CHECK(b.end == (b.block == 0 ? 2000 * ns : 3000 * ns));
}

TEST_CASE("shared needs per-warp work and a clock") {
    auto policy = scheduler::make_policy("most-room");
    const auto synthetic = test::app_of({test::launch(4, 64, 1000)});
    CHECK_THROWS_WITH_AS(sim::Engine(one_sm(), synthetic, *policy, "shared"), doctest::Contains("per-warp work"), InputError);
    auto no_clock = one_sm();
    no_clock.clock_mhz.reset();
    const auto app = test::app_of({kernel(1, 64, 10, 0)});
    CHECK_THROWS_WITH_AS(sim::Engine(no_clock, app, *policy, "shared"), doctest::Contains("clock_mhz"), InputError);
    CHECK_THROWS_WITH_AS(sim::Engine(one_sm(), app, *policy, "turbo"), doctest::Contains("fixed, shared"), InputError);
}

TEST_CASE("with a dispatch latency, work starts at the block's start, not at its dispatch") {
    // Latency 500 ns; one 8-warp block of W = 100 slots: 8 x 100 / 4 per ns = 200 ns of work,
    // so it ends at 500 + 200 = 700 ns, never before it starts (a regression: ends were once
    // computed from the dispatch time).
    auto gpu = one_sm();
    gpu.block_dispatch_latency_ns = 500;
    const auto r = test::run(gpu, test::app_of({kernel(1, 256, 100, 0)}), "most-room", nullptr, "shared");
    REQUIRE(r.blocks.size() == 1);
    CHECK(r.blocks[0].start == 500 * ns);
    CHECK(r.blocks[0].end == 700 * ns);
}
