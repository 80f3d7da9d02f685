// APSP work bound to a GPU: L2 hits and misses, L1 wavefronts and the latency floor, worked by hand.
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

namespace {

const ApspWork& bound_work(const KernelLaunch& launch, const hw::GpuSpec& gpu, std::shared_ptr<const BlockWork>& keep) {
    keep = work_on_gpu(launch, gpu);
    return dynamic_cast<const ApspWork&>(*keep);
}

}  // namespace

TEST_CASE("Min-plus on the H100 preset: D and P fit in L2, every access hits") {
    // n = 100, BS = 16: 7 x 7 tiles, 8 warps per block, 8 blocks per SM (1056 resident).
    const hw::GpuSpec h100 = hw::resolve_gpu("h100");
    const KernelLaunch k = parse_kernel_spec("apsp-minplus:n=100,block=16", "--kernel");
    std::shared_ptr<const BlockWork> keep;
    const ApspWarpCost c = bound_work(k, h100, keep).cost();
    CHECK(c.issue_slots == doctest::Approx(521.5));  // the paper's counts are unchanged
    CHECK(c.dram_bytes_per_thread == 0);
    CHECK(c.l2_bytes_per_thread == doctest::Approx(4 * (2.5 + 14)));  // all of eqs. 4-5's 66 B
    // Per tile 2 x 16 shared loads, 2 stores, 2 global loads of 2 lines (2 tile rows per warp);
    // line 3 and p_min x line 11 (load, 2 stores) at 2 lines each: 7 x 38 + 2 x 2.5.
    CHECK(c.l1_wavefronts == doctest::Approx(7 * 38 + 5));
    // Per tile: L2 hit 280 + the fill's extra 155 + the block's 8 x 6 fill wavefronts + shared
    // load 29 + 2 barriers of 12 + 2 x 8 warps + lines 5-8 alone, max(path 2 x 29 + 20 x 6, 42,
    // 8 x 42 / 4, 8 x 32 / 1) = 256; plus 1.5 L2 hits for lines 3 and 11.
    CHECK(c.latency_cycles == doctest::Approx(7 * (280 + 155 + 48 + 29 + 56 + 256) + 1.5 * 280));
    const auto w = keep->warp_work(0);
    REQUIRE(w);
    CHECK(w->dram_bytes == 0);
    CHECK(w->l2_bytes == doctest::Approx(66 * 32));
    CHECK(w->l1_wavefronts == doctest::Approx(271));
    CHECK(keep->describe() == "apsp-minplus n=100 block=16: 7x7 grid, 7 launches; per warp 521.5 issue slots, 2112 B "
                              "(2112 B L2 hits), latency 6188 cycles");
}

TEST_CASE("Min-plus 8x8 on the H100 preset: the per-tile latency is one warp's dependent path") {
    // n = 100, BS = 8: 13 x 13 tiles, 2 warps per block. Per tile: L2 hit 280 + the fill's extra
    // 155 + the block's 2 x 10 fill wavefronts + shared load 29 + 2 barriers of 12 + 2 x 2 warps,
    // and lines 5-8 alone: the path of 2 more shared loads (3 exposed) and 8 + 4 dependent
    // instructions of 5 + 1 cycles = 130, above the k loop's 2 x 16 wavefronts and 42 issue
    // slots; plus 1.5 L2 hits for lines 3 and 11.
    const hw::GpuSpec h100 = hw::resolve_gpu("h100");
    std::shared_ptr<const BlockWork> keep;
    const ApspWarpCost c = bound_work(parse_kernel_spec("apsp-minplus:n=100,block=8", "--kernel"), h100, keep).cost();
    CHECK(c.latency_cycles == doctest::Approx(13 * (280 + 155 + 20 + 29 + 32 + 2 * 29 + 12 * 6) + 1.5 * 280));
    // The SASS counts are keys: one exposed shared load and no address chain leave 8 x 6 = 48,
    // still above the 32 wavefronts.
    const KernelLaunch bare =
        parse_kernel_spec("apsp-minplus:n=100,block=8,exposed_shared_loads=1,address_chain_instr=0", "--kernel");
    CHECK(bound_work(bare, h100, keep).cost().latency_cycles == doctest::Approx(13 * (280 + 155 + 20 + 29 + 32 + 48) + 1.5 * 280));
}

TEST_CASE("Min-plus beyond L2: row strips miss once per block row, column strips once per wave") {
    hw::GpuSpec gpu = hw::resolve_gpu("h100");
    gpu.l2_bytes = 1 << 20;  // D and P (8 MB at n = 1000) no longer fit
    const KernelLaunch k = parse_kernel_spec("apsp-minplus:n=1000,block=16", "--kernel");
    std::shared_ptr<const BlockWork> keep;
    const ApspWarpCost c = bound_work(k, gpu, keep).cost();
    const double rows_per_wave = 1056.0 / 63;  // 132 SMs x 8 blocks over GridWidth 63
    const double miss_row = 1.0 / 63, miss_col = 1 / rows_per_wave;
    CHECK(c.dram_bytes_per_thread == doctest::Approx(4 * (2.5 + 63 * (miss_row + miss_col))));
    CHECK(c.l2_bytes_per_thread == doctest::Approx(4 * 63 * (2 - miss_row - miss_col)));
    CHECK(c.dram_bytes_per_thread + c.l2_bytes_per_thread == doctest::Approx(4 * (2.5 + 126)));
    const double both_hit = (1 - miss_row) * (1 - miss_col);
    const double tile_wait = both_hit * 280 + (1 - both_hit) * 685;
    CHECK(c.latency_cycles == doctest::Approx(63 * (tile_wait + 155 + 48 + 29 + 56 + 256) + 1.5 * 685));
}

TEST_CASE("a given tile_latency_cycles wins; GPUs without the memory keys keep the paper's counts") {
    const hw::GpuSpec h100 = hw::resolve_gpu("h100");
    const KernelLaunch given = parse_kernel_spec("apsp-minplus:n=100,block=16,tile_latency_cycles=100", "--kernel");
    std::shared_ptr<const BlockWork> keep;
    CHECK(bound_work(given, h100, keep).cost().latency_cycles == doctest::Approx(700));
    CHECK(bound_work(given, h100, keep).cost().l2_bytes_per_thread > 0);
    const KernelLaunch k = parse_kernel_spec("apsp-minplus:n=100,block=16", "--kernel");
    CHECK(work_on_gpu(k, test::gpu_without_memory_keys()) == k.work);
}

TEST_CASE("Floyd-Warshall on the H100 preset: row and column k hit, one round trip per step") {
    const hw::GpuSpec h100 = hw::resolve_gpu("h100");
    const SpecLaunches s = parse_kernel_spec_launches("apsp-fw:n=81,block=8", "--kernel");
    CHECK(s.count == 81);
    std::shared_ptr<const BlockWork> keep;
    const ApspWarpCost c = bound_work(s.launch, h100, keep).cost();
    CHECK(c.dram_bytes_per_thread == 0);
    CHECK(c.l2_bytes_per_thread == doctest::Approx(4 * (1.5 + 2)));
    // 4 tile rows per warp, one line each: D(gx, k) 4, D(k, gy) 1, D(gx, gy) 4; p_min x (1 + 2 x 4).
    CHECK(c.l1_wavefronts == doctest::Approx(9 + 0.5 * 9));
    // A warp (32 of the block's 64 threads) waits for line 5's load when any lane updates: 1 - 0.5^32.
    CHECK(c.latency_cycles == doctest::Approx(280 + (1 - std::pow(0.5, 32)) * 280 + 6.5));
    CHECK(parse_kernel_spec_launches("apsp-fw:n=81,block=8,steps=1", "--kernel").count == 1);
    hw::GpuSpec small = h100;
    small.l2_bytes = 1024;
    const ApspWarpCost m = bound_work(s.launch, small, keep).cost();
    CHECK(m.dram_bytes_per_thread == doctest::Approx(4 * 2));  // own element, stores of D and P
    CHECK(m.latency_cycles == doctest::Approx(685 + (1 - std::pow(0.5, 32)) * 280 + 6.5));
}
