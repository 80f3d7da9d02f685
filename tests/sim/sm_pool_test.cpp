// SmPool: reservations follow the occupancy rules, roll back cleanly, and lower the room by exactly one.
#include <doctest/doctest.h>

#include <random>
#include <vector>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/support/input_error.h"
#include "gpusched/hw/occupancy.h"
#include "gpusched/sim/sm_pool.h"

using namespace gpusched;

namespace {

sim::BlockFootprint footprint(const hw::GpuSpec& gpu, int threads, int regs, std::int64_t smem) {
    hw::OccupancyRequest req;
    req.threads_per_block = threads;
    req.registers_per_thread = regs;
    req.static_shared_bytes = smem;
    return sim::BlockFootprint::of(gpu, req, hw::compute_occupancy(gpu, req));
}

}  // namespace

TEST_CASE("sm pool: an empty SM takes exactly the occupancy calculator's blocks") {
    for (const char* name : {"h100", "a100", "v100", "gtx780", "c2075", "c1060"}) {
        const hw::GpuSpec gpu = hw::resolve_gpu(name);
        for (int threads : {32, 96, 256, 640, 1024})
            for (int regs : {16, 40, 63}) {
                if (threads > gpu.max_threads_per_block) continue;
                hw::OccupancyRequest req;
                req.threads_per_block = threads;
                req.registers_per_thread = regs;
                req.static_shared_bytes = 3000;
                hw::OccupancyResult occ;
                try {
                    occ = hw::compute_occupancy(gpu, req);
                } catch (const InputError&) {
                    continue;  // cannot launch on this GPU (tested in hw/)
                }
                sim::SmPool pool(gpu);
                sim::BlockFootprint f = sim::BlockFootprint::of(gpu, req, occ);
                pool.prepare(f);
                CAPTURE(name);
                CAPTURE(threads);
                CAPTURE(regs);
                CHECK(f.blocks_on_empty_sm == occ.blocks_per_sm);
                int placed = 0;
                while (pool.reserve(0, f) >= 0) ++placed;
                CHECK(placed == occ.blocks_per_sm);
                CHECK(pool.room(0, f) == 0);
            }
    }
}

TEST_CASE("sm pool: reserving a block lowers that footprint's room by exactly one, in any mix") {
    // The dispatcher protocol relies on this (dispatch_policy.h): a dispatcher accounts for
    // its own placements as room - 1. Random mixes of three footprints, random releases.
    const hw::GpuSpec gpu = hw::resolve_gpu("h100");
    std::vector<sim::BlockFootprint> kinds{footprint(gpu, 96, 40, 5000), footprint(gpu, 256, 32, 0),
                                           footprint(gpu, 64, 168, 20000)};
    sim::SmPool pool(gpu);
    for (auto& f : kinds) pool.prepare(f);
    kinds.push_back(kinds[0].single_warp());
    pool.prepare(kinds.back());
    std::mt19937 rng(7);
    std::vector<int> resident;
    for (int step = 0; step < 20000; ++step) {
        const bool release = !resident.empty() && rng() % 3 == 0;
        if (release) {
            const std::size_t i = rng() % resident.size();
            pool.release(0, resident[i]);
            resident.erase(resident.begin() + static_cast<std::ptrdiff_t>(i));
            continue;
        }
        const sim::BlockFootprint& f = kinds[rng() % kinds.size()];
        const int before = pool.room(0, f);
        const int slot = pool.reserve(0, f);
        CHECK((slot >= 0) == (before >= 1));
        if (slot < 0) continue;
        resident.push_back(slot);
        CHECK(pool.room(0, f) == before - 1);
        CHECK(pool.within_limits(0));
    }
}

TEST_CASE("sm pool: a failed reservation leaves the SM exactly as it was") {
    const hw::GpuSpec gpu = hw::resolve_gpu("h100");
    sim::BlockFootprint big = footprint(gpu, 1024, 64, 0);      // registers: 1 per SM
    sim::BlockFootprint small = footprint(gpu, 32, 16, 1000);
    sim::SmPool pool(gpu);
    pool.prepare(big);
    pool.prepare(small);
    REQUIRE(pool.reserve(0, big) >= 0);
    const int small_room = pool.room(0, small);
    CHECK(pool.reserve(0, big) == -1);  // fails on registers after the counted resources passed
    CHECK(pool.room(0, small) == small_room);
    CHECK(pool.resident_blocks(0) == 1);
    CHECK(pool.resident_warps(0) == 32);
}

TEST_CASE("sm pool: prepared footprints (fast paths) reserve and release exactly like unprepared ones") {
    // A prepared footprint takes the fast paths (fit by blocks_on_empty_sm on an SM holding
    // only its kind; registers dealt evenly, recorded per slot as one flag); an unprepared
    // copy of the same footprint always takes the general rules. Both pools must agree on
    // every reservation, on the counters, and on what an uneven third kind can still take.
    for (const char* name : {"h100", "v100", "gtx780", "c2075"}) {
        const hw::GpuSpec gpu = hw::resolve_gpu(name);
        std::vector<sim::BlockFootprint> fast{footprint(gpu, 256, 16, 0), footprint(gpu, 128, 40, 4000),
                                              footprint(gpu, 96, 24, 0)};
        const std::vector<sim::BlockFootprint> general = fast;
        sim::SmPool fast_pool(gpu);
        sim::SmPool general_pool(gpu);
        for (auto& f : fast) fast_pool.prepare(f);
        CHECK(fast[0].blocks_on_empty_sm > 0);
        std::mt19937 rng(11);
        std::vector<std::pair<int, int>> resident;  // (sm, slot)
        for (int step = 0; step < 6000; ++step) {
            CAPTURE(name);
            CAPTURE(step);
            const int sm = static_cast<int>(rng() % 3);
            if (!resident.empty() && rng() % 3 == 0) {
                const std::size_t i = rng() % resident.size();
                fast_pool.release(resident[i].first, resident[i].second);
                general_pool.release(resident[i].first, resident[i].second);
                resident.erase(resident.begin() + static_cast<std::ptrdiff_t>(i));
            } else {
                // Mostly the first kind, so SMs often hold only it; sometimes a mix.
                const std::size_t k = rng() % 8 == 0 ? 1 + rng() % 2 : 0;
                const int slot = fast_pool.reserve(sm, fast[k]);
                REQUIRE(slot == general_pool.reserve(sm, general[k]));
                if (slot >= 0) resident.emplace_back(sm, slot);
            }
            REQUIRE(fast_pool.resident_blocks(sm) == general_pool.resident_blocks(sm));
            REQUIRE(fast_pool.resident_warps(sm) == general_pool.resident_warps(sm));
            REQUIRE(fast_pool.within_limits(sm));
            REQUIRE(fast_pool.room(sm, fast[2]) == general_pool.room(sm, fast[2]));
        }
    }
}

TEST_CASE("sm pool: slots per SM are what a one-warp block can fill; slot records are made per SM on demand") {
    // H100 numbers with max_blocks_per_sm 4096 and 100000 SMs: 64 warps per SM bound the slots to 64.
    hw::GpuSpec gpu = hw::resolve_gpu("h100");
    gpu.sm_count = 100000;
    gpu.max_blocks_per_sm = 4096;
    CHECK(sim::SmPool::slots_per_sm(gpu) == 64);
    gpu.max_blocks_per_sm = 32;
    CHECK(sim::SmPool::slots_per_sm(gpu) == 32);  // the preset's own bound
    gpu.max_blocks_per_sm = 4096;
    sim::SmPool pool(gpu);
    // 32-thread blocks, no registers: the lazy sole-footprint path keeps no per-slot records.
    sim::BlockFootprint small = footprint(gpu, 32, 0, 0);
    pool.prepare(small);
    REQUIRE(small.blocks_on_empty_sm == 64);
    for (int i = 0; i < 64; ++i) CHECK(pool.reserve(99999, small) == i);
    CHECK(pool.reserve(99999, small) == -1);  // the 65th does not fit: 64 warps
    CHECK(pool.slot_records() == 0);
    // A block of another footprint on that SM materialises it: 64 records for that SM alone.
    sim::BlockFootprint other = footprint(gpu, 64, 32, 0);
    pool.prepare(other);
    pool.release(99999, 10);
    CHECK(pool.reserve(99999, other) == -1);  // 2 warps, one free
    pool.release(99999, 11);
    CHECK(pool.reserve(99999, other) == 10);
    CHECK(pool.slot_records() == 64);
    CHECK(pool.within_limits(99999));
    // Another SM taking the general path gets its own 64; the other 99998 SMs have none.
    CHECK(pool.reserve(7, other) == 0);
    CHECK(pool.reserve(7, small) == 1);
    CHECK(pool.slot_records() == 128);
    pool.release(7, 0);
    pool.release(7, 1);
    CHECK(pool.resident_blocks(7) == 0);
}
