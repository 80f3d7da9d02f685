// The `shared` model's L2 bandwidth and per-SM L1 data path against hand-derived arithmetic.
#include <doctest/doctest.h>

#include "support/sim_fixtures.h"

using namespace gpusched;

namespace {
constexpr Time ns = 1000;  // picoseconds

/// SMs issuing C = 4 slots per cycle at 1000 MHz (4 slots per ns), no bandwidth or L1 limit.
hw::GpuSpec gpu(int sms) { return test::unlimited_issue_gpu(sms); }

/// `blocks` one-warp blocks, each warp W = 1000 slots with the given bytes and wavefronts.
workloads::KernelLaunch kernel(std::uint64_t blocks, double dram, double l2, double wavefronts) {
    auto k = test::launch(blocks, 32, 0);
    k.work = std::make_shared<test::LambdaWork>(
        [](std::uint64_t) { return Time{0}; }, [](std::uint64_t, int w) { return w; },
        [dram, l2, wavefronts](std::uint64_t) {
            workloads::WarpWork w;
            w.issue_slots = 1000;
            w.dram_bytes = dram;
            w.l2_bytes = l2;
            w.l1_wavefronts = wavefronts;
            return w;
        });
    return k;
}

Time makespan(const hw::GpuSpec& g, workloads::KernelLaunch k) {
    return test::run(g, test::app_of({std::move(k)}), "most-room", nullptr, "shared").makespan;
}
}  // namespace

TEST_CASE("L2 hits cost nothing without an L2 bandwidth; with one they share it like DRAM bytes") {
    // Two SMs, one block each: alone a warp issues 4 slots/ns in 250 ns.
    hw::GpuSpec g = gpu(2);
    CHECK(makespan(g, kernel(2, 0, 100000, 0)) == 250 * ns);
    // B_L2 = 100 bytes/ns: each block asks 4 x 100 = 400 bytes/ns, 800 in all: phi = 1/8,
    // 2000 ns = 2 x 100000 bytes / B_L2.
    g.l2_bandwidth_gbps = 100;
    CHECK(makespan(g, kernel(2, 0, 100000, 0)) == 2000 * ns);
    // DRAM bytes pass the L2 too: 50000 + 50000 bytes per block through L2 (2000 ns), of which
    // 50000 to DRAM at B = 1000 bytes/ns (100 ns): the L2 binds.
    g.dram_bandwidth_gbps = 1000;
    CHECK(makespan(g, kernel(2, 50000, 50000, 0)) == 2000 * ns);
    // With B = 25 bytes/ns the DRAM binds: 2 x 50000 / 25 = 4000 ns.
    g.dram_bandwidth_gbps = 25;
    CHECK(makespan(g, kernel(2, 50000, 50000, 0)) == 4000 * ns);
}

TEST_CASE("L1 wavefronts cap an SM at M per cycle; other SMs and other work are unaffected") {
    hw::GpuSpec g = gpu(1);
    // 4 one-warp blocks on one SM: 1 slot/ns each, issue time 1000 ns. Each warp makes 2000
    // wavefronts, 2 per slot: 8 per ns asked, M = 1 per cycle = 1 per ns: psi = 1/8, so
    // 8000 ns = 4 x 2000 wavefronts / M.
    CHECK(makespan(g, kernel(4, 0, 0, 2000)) == 1000 * ns);  // no key: no limit
    g.l1_wavefronts_per_cycle = 1;
    CHECK(makespan(g, kernel(4, 0, 0, 2000)) == 8000 * ns);
    // 500 wavefronts per warp: 2 per ns asked, still psi = 1/2: 2000 ns.
    CHECK(makespan(g, kernel(4, 0, 0, 500)) == 2000 * ns);
    // 200 per warp: 0.8 per ns <= 1: the issue time, 1000 ns.
    CHECK(makespan(g, kernel(4, 0, 0, 200)) == 1000 * ns);
    // Four SMs, one block each: each SM's own limit, 2000 wavefronts at 1 per ns.
    hw::GpuSpec four = gpu(4);
    four.l1_wavefronts_per_cycle = 1;
    CHECK(makespan(four, kernel(4, 0, 0, 2000)) == 2000 * ns);
}
