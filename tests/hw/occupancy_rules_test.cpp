// Hand-derived occupancy cases (arithmetic in comments), including cc 1.x/2.x rules the CUDA header lacks.
#include <doctest/doctest.h>

#include <algorithm>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/support/input_error.h"
#include "gpusched/hw/occupancy.h"

using namespace gpusched;

namespace {
hw::OccupancyResult occ(const std::string& gpu, int threads, int regs, std::int64_t dyn = 0,
                        std::int64_t stat = 0, const std::string& carveout = "default") {
    hw::OccupancyRequest req;
    req.threads_per_block = threads;
    req.registers_per_thread = regs;
    req.dynamic_shared_bytes = dyn;
    req.static_shared_bytes = stat;
    req.carveout = hw::Carveout::parse(carveout, "--carveout");
    return hw::compute_occupancy(hw::resolve_gpu(gpu), req);
}
bool limited_by(const hw::OccupancyResult& r, hw::Limiter l) {
    return std::find(r.limited_by.begin(), r.limited_by.end(), l) != r.limited_by.end();
}
}  // namespace

TEST_CASE("h100: 256 threads x 32 registers fills the SM; warps and registers both limit") {
    // warps: 64 / 8 = 8 blocks. registers: 32*32 = 1024 per warp (a multiple of 256);
    // 65536/4 = 16384 per sub-partition -> 16 warps each -> 64 warps -> 64/8 = 8 blocks.
    const auto r = occ("h100", 256, 32);
    CHECK(r.blocks_per_sm == 8);
    CHECK(r.warps_per_sm == 64);
    CHECK(r.occupancy == doctest::Approx(1.0));
    CHECK(limited_by(r, hw::Limiter::warps));
    CHECK(limited_by(r, hw::Limiter::registers));
    CHECK_FALSE(limited_by(r, hw::Limiter::blocks));
}

TEST_CASE("h100: register rounding per warp and per sub-partition") {
    // 33 regs: 33*32 = 1056 -> rounded to 1280 per warp; 16384/1280 = 12 warps per sub-partition
    // -> 48 warps per SM; blocks of 4 warps (128 threads) -> 12 blocks.
    const auto r = occ("h100", 128, 33);
    CHECK(r.registers_per_warp == 1280);
    CHECK(r.limit_registers == 12);
    CHECK(r.blocks_per_sm == 12);
    CHECK(limited_by(r, hw::Limiter::registers));
}

TEST_CASE("h100: 255 registers x 1024 threads cannot launch") {
    // 255*32 = 8160 -> 8192 per warp; 32 warps (already a multiple of 4) -> 262144 > 65536 per block.
    CHECK_THROWS_AS(occ("h100", 1024, 255), InputError);
    // 64 registers x 1024 threads: 2048 per warp x 32 = 65536 = the limit, so exactly one block fits.
    CHECK(occ("h100", 1024, 64).blocks_per_sm == 1);
}

TEST_CASE("h100: shared memory uses the reserved 1 KiB per block and the carveout steps") {
    // 0 bytes requested still allocates the 1 KiB reserved block: 233472 / 1024 = 228 blocks (not limiting).
    CHECK(occ("h100", 64, 0).limit_shared_memory == 228);
    // 40000 + 1024 reserved = 41024 -> rounded to 128: 41088. Default carveout = 228 KiB:
    // 233472 / 41088 = 5 blocks.
    const auto r = occ("h100", 64, 0, 40000);
    CHECK(r.shared_bytes_per_block == 41088);
    CHECK(r.blocks_per_sm == 5);
    CHECK(limited_by(r, hw::Limiter::shared_memory));
    // Carveout 25%: 0.25 * 233472 = 58368 -> next step 64 KiB = 65536 -> 65536/41088 = 1 block.
    CHECK(occ("h100", 64, 0, 40000, 0, "25").blocks_per_sm == 1);
    // Carveout max-l1 (0%): 0 KiB is too small for one block, so the driver picks the smallest
    // step that holds it: 64 KiB -> 1 block.
    CHECK(occ("h100", 64, 0, 40000, 0, "max-l1").shared_bytes_per_sm == 65536);
}

TEST_CASE("h100: shared memory over the default 48 KiB needs opt-in; over 227 KiB cannot launch") {
    const auto r = occ("h100", 128, 0, 100000);
    CHECK(r.needs_shared_optin);
    CHECK(r.blocks_per_sm == 2);  // 101024 -> 101120 allocated; 233472 / 101120 = 2
    CHECK_THROWS_AS(occ("h100", 128, 0, 232449), InputError);
    CHECK(occ("h100", 128, 0, 232448).blocks_per_sm == 1);
}

TEST_CASE("h100: max 32 blocks per SM and the barrier limit") {
    // 32 threads = 1 warp: warps allow 64, blocks cap at 32.
    const auto r = occ("h100", 32, 0);
    CHECK(r.blocks_per_sm == 32);
    CHECK(limited_by(r, hw::Limiter::blocks));
    // 3 named barriers per block: 64 / 3 = 21 blocks.
    hw::OccupancyRequest req;
    req.threads_per_block = 32;
    req.barriers_per_block = 3;
    const auto b = hw::compute_occupancy(hw::resolve_gpu("h100"), req);
    CHECK(b.blocks_per_sm == 21);
    CHECK(limited_by(b, hw::Limiter::barriers));
}

TEST_CASE("c1060 (cc 1.3): block-granular registers, 2-warp allocation, 512-byte shared units") {
    // 16x16 = 256 threads = 8 warps (even) x 16 regs x 32 = 4096 registers, a multiple of 512.
    // 16384 / 4096 = 4 blocks; warps: 32/8 = 4 blocks -> 4 blocks, both limit.
    const auto r = occ("c1060", 256, 16);
    CHECK(r.blocks_per_sm == 4);
    CHECK(limited_by(r, hw::Limiter::registers));
    CHECK(limited_by(r, hw::Limiter::warps));
    // 8x8 = 64 threads = 2 warps x 10 regs x 32 = 640 -> rounded to 1024 per block;
    // registers allow 16, warps 16, max blocks 8 -> 8 blocks limited by the block count.
    const auto s = occ("c1060", 64, 10);
    CHECK(s.registers_per_block == 1024);
    CHECK(s.blocks_per_sm == 8);
    CHECK(limited_by(s, hw::Limiter::blocks));
    // 96 threads = 3 warps rounded up to 4 for allocation: 4 x 32 x 16 = 2048 -> 8 blocks by registers.
    CHECK(occ("c1060", 96, 16).limit_registers == 8);
    // shared memory: 3000 bytes -> 3072 (512 units); 16384 / 3072 = 5 blocks.
    CHECK(occ("c1060", 64, 0, 3000).blocks_per_sm == 5);
}

TEST_CASE("c2075 (cc 2.0): 64-register units, 128 for the odd counts, two register sub-partitions") {
    // 20 regs x 32 = 640 (a multiple of 64); 16384 per half / 640 = 25 warps -> 50 warps per SM.
    // 256-thread blocks = 8 warps: 50/8 = 6 blocks; warps: 48/8 = 6 blocks.
    CHECK(occ("c2075", 256, 20).limit_registers == 6);
    // 21 regs x 32 = 672 -> rounded to 128: 768; 16384/768 = 21 warps per half -> 42 -> 42/8 = 5 blocks.
    const auto r = occ("c2075", 256, 21);
    CHECK(r.registers_per_warp == 768);
    CHECK(r.blocks_per_sm == 5);
    CHECK(limited_by(r, hw::Limiter::registers));
    // 63 registers is the per-thread maximum on Fermi.
    CHECK_THROWS_AS(occ("c2075", 32, 64), InputError);
    // Cache config: max-l1 leaves 16 KiB of shared memory: 10000 bytes -> 10112 -> 1 block;
    // the default 48 KiB split fits 4.
    CHECK(occ("c2075", 64, 0, 10000, 0, "max-l1").blocks_per_sm == 1);
    CHECK(occ("c2075", 64, 0, 10000).blocks_per_sm == 4);
    // Fermi has no equal split, and percentages are a cc >= 7.0 setting.
    CHECK_THROWS_AS(occ("c2075", 64, 0, 0, 0, "equal"), InputError);
    CHECK_THROWS_AS(occ("c2075", 64, 0, 0, 0, "50"), InputError);
}

TEST_CASE("bad requests are InputErrors naming the key (the command line maps it to its flag)") {
    CHECK_THROWS_WITH_AS(occ("h100", 0, 0), "threads: expected at least 1 thread per block, got 0", InputError);
    CHECK_THROWS_WITH_AS(occ("h100", 2048, 0), doctest::Contains("1024 threads per block"), InputError);
    CHECK_THROWS_WITH_AS(occ("h100", 32, -1), "regs: expected 0 or more registers per thread, got -1", InputError);
    CHECK_THROWS_WITH_AS(occ("h100", 32, 256), doctest::Contains("255 registers per thread"), InputError);
    CHECK_THROWS_WITH_AS(occ("h100", 32, 0, -5), doctest::Contains("smem: expected 0 to 2^40 bytes"), InputError);
    CHECK_THROWS_WITH_AS(hw::Carveout::parse("lots", "--carveout"), doctest::Contains("--carveout"), InputError);
    CHECK_THROWS_AS(hw::Carveout::parse("101", "--carveout"), InputError);
}
