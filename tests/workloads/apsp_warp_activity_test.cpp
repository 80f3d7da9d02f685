// APSP warps bound to a GPU: Min-plus edge blocks run every warp, a Floyd-Warshall warp waits for the update if one lane does.
#include <doctest/doctest.h>

#include <cmath>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/workloads/apsp_fw.h"
#include "gpusched/workloads/apsp_minplus.h"
#include "gpusched/workloads/gpu_bound_work.h"
#include "gpusched/workloads/kernel_spec.h"
#include "support/bare_gpu.h"

using namespace gpusched;
using namespace gpusched::workloads;

TEST_CASE("Min-plus on the H100 preset: an edge block's warps all run the tile loop") {
    // n = 97, BS = 16: 7 x 7 blocks of 8 warps; n mod 16 = 1, so a bottom block (42) has one
    // active row (16 threads: warp 0) and a right block (6) one active column (all 8 warps).
    const hw::GpuSpec h100 = hw::resolve_gpu("h100");
    const KernelLaunch k = parse_kernel_spec("apsp-minplus:n=97,block=16", "--kernel");
    // The paper's counts (eqs. 7, 9, 11) stay with the unbound work.
    CHECK(k.work->active_warps(42, 8) == 1);
    CHECK(k.work->active_warps(48, 8) == 1);
    const std::shared_ptr<const BlockWork> bound = work_on_gpu(k, h100);
    REQUIRE(bound != k.work);
    // Bound: line 5 fills the tiles with one element per thread and lines 6 and 10 are barriers,
    // so every one of the 8 warps works in every block.
    CHECK(bound->active_warps(0, 8) == 8);
    CHECK(bound->active_warps(6, 8) == 8);
    CHECK(bound->active_warps(42, 8) == 8);
    CHECK(bound->active_warps(48, 8) == 8);
    const auto& cost = dynamic_cast<const ApspWork&>(*bound).cost();
    CHECK(cost.every_warp_active);
    // The block's bytes are the same as before, spread over its 8 warps: bottom block 42 has
    // 16 x 1 active threads, so 16 x bytes per thread / 8 per warp (was / 1).
    const auto w = bound->warp_work(42);
    REQUIRE(w);
    CHECK(w->l2_bytes == doctest::Approx(cost.l2_bytes_per_thread * 16 / 8));
    CHECK(w->dram_bytes == 0);  // 2 x 97^2 x 4 B fit in the 50 MiB L2
    // A full block: 256 threads over 8 warps, as before.
    CHECK(bound->warp_work(0)->l2_bytes == doctest::Approx(cost.l2_bytes_per_thread * 256 / 8));
    // Issue slots, latency and wavefronts per warp are those of a full block.
    CHECK(bound->warp_work(42)->issue_slots == doctest::Approx(bound->warp_work(0)->issue_slots));
    CHECK(bound->warp_work(42)->l1_wavefronts == doctest::Approx(bound->warp_work(0)->l1_wavefronts));
    // Its warps pass two barriers per tile together: one customer of the L1 queue.
    CHECK(bound->warp_work(0)->l1_by_block);
    CHECK_FALSE(k.work->warp_work(0)->l1_by_block);
}

TEST_CASE("Min-plus on a GPU without latency, L2 or L1 keys keeps the paper's inactive warps") {
    const hw::GpuSpec bare = test::gpu_without_memory_keys();
    const KernelLaunch k = parse_kernel_spec("apsp-minplus:n=97,block=16", "--kernel");
    const std::shared_ptr<const BlockWork> bound = work_on_gpu(k, bare);
    CHECK(bound == k.work);
    CHECK(bound->active_warps(42, 8) == 1);
}

TEST_CASE("Floyd-Warshall: a warp waits for line 5's load when any of its lanes updates") {
    const hw::GpuSpec h100 = hw::resolve_gpu("h100");
    std::shared_ptr<const BlockWork> keep;
    const auto latency = [&](const std::string& spec) {
        keep = work_on_gpu(parse_kernel_spec(spec, "--kernel"), h100);
        return dynamic_cast<const ApspWork&>(*keep).cost().latency_cycles;
    };
    // p_min = 0.1, 32 lanes: 1 - 0.9^32 = 0.96566... of the warps wait for the second L2 round
    // trip (280 cycles); issue slots 2 + 3 + 3 x 0.1 = 5.3 at one per cycle.
    const double p32 = 1 - std::pow(0.9, 32);
    CHECK(p32 == doctest::Approx(0.965659).epsilon(1e-5));
    CHECK(latency("apsp-fw:n=100,block=16,p_min=0.1") == doctest::Approx(280 + p32 * 280 + 5.3));
    // 2 x 2 blocks: a warp of 4 lanes, 1 - 0.9^4 = 0.3439.
    CHECK(latency("apsp-fw:n=100,block=2,p_min=0.1") == doctest::Approx(280 + 0.3439 * 280 + 5.3));
    // p_min = 0: no warp updates; p_min = 1: every warp.
    CHECK(latency("apsp-fw:n=100,block=16,p_min=0") == doctest::Approx(280 + 5));
    CHECK(latency("apsp-fw:n=100,block=16,p_min=1") == doctest::Approx(280 + 280 + 8));
    // No barrier in the step kernel: its warps reach the L1 path each on its own.
    CHECK_FALSE(keep->warp_work(0)->l1_by_block);
}
