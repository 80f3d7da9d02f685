// Hand-derived block distributions for every dispatch policy (the interval paper's Figures 3 and 4).
#include <doctest/doctest.h>

#include "gpusched/support/input_error.h"
#include "support/sim_fixtures.h"

using namespace gpusched;
using test::launch;

namespace {
constexpr Time us = 1000000;  // picoseconds per microsecond

std::vector<std::uint64_t> blocks_of(const test::Recorder& r, int sm) {
    const auto it = r.per_sm.find(sm);
    return it == r.per_sm.end() ? std::vector<std::uint64_t>{} : it->second;
}

/// Max over SMs of the active warps assigned to it.
std::uint64_t max_warps(const test::Recorder& r, const std::function<int(std::uint64_t)>& warps) {
    std::uint64_t best = 0;
    for (const auto& [sm, list] : r.per_sm) {
        std::uint64_t sum = 0;
        for (auto b : list) sum += static_cast<std::uint64_t>(warps(b));
        best = std::max(best, sum);
    }
    return best;
}
}  // namespace

TEST_CASE("static-rr (Full): 7 full blocks on 4 SMs -> block i on SM i mod 4") {
    // Figure 4(a)-style round robin: SM0 {0,4}, SM1 {1,5}, SM2 {2,6}, SM3 {3}.
    // 1024-thread blocks: 2 fit per H100 SM, so all 7 run at once; makespan = one duration.
    const auto r = test::run(test::small_gpu(4), test::app_of({launch(7, 1024, 10 * us)}), "static-rr");
    CHECK(blocks_of(r, 0) == std::vector<std::uint64_t>{0, 4});
    CHECK(blocks_of(r, 1) == std::vector<std::uint64_t>{1, 5});
    CHECK(blocks_of(r, 2) == std::vector<std::uint64_t>{2, 6});
    CHECK(blocks_of(r, 3) == std::vector<std::uint64_t>{3});
    CHECK(r.makespan == 10 * us);
}

TEST_CASE("static-rr waits for its own SM even when another is idle (not work-conserving)") {
    // 1 block/SM (2048-thread limit with 1024 threads is 2, so use 33 registers x 1024? simpler:
    // 64 registers x 1024 threads = 65536 registers = one block per SM). 6 blocks, 4 SMs:
    // SM0 gets {0,4}, SM1 {1,5}: two rounds -> 2 durations, though SM2/SM3 idle in round 2.
    auto k = launch(6, 1024, 10 * us);
    k.registers_per_thread = 64;
    const auto r = test::run(test::small_gpu(4), test::app_of({k}), "static-rr");
    CHECK(r.makespan == 20 * us);
    CHECK(blocks_of(r, 2) == std::vector<std::uint64_t>{2});
}

TEST_CASE("buckets: 5 blocks, bucket size 2, 4 SMs -> {0,1} {2,3} {4} {}") {
    // Figure 4(b): bucket size = blocks per SM = 2 (1024 threads on a 2048-thread SM).
    const auto r = test::run(test::small_gpu(4), test::app_of({launch(5, 1024, 10 * us)}), "buckets");
    CHECK(blocks_of(r, 0) == std::vector<std::uint64_t>{0, 1});
    CHECK(blocks_of(r, 1) == std::vector<std::uint64_t>{2, 3});
    CHECK(blocks_of(r, 2) == std::vector<std::uint64_t>{4});
    CHECK(blocks_of(r, 3).empty());
}

TEST_CASE("buckets wrap: 11 blocks, bucket size 2, 4 SMs") {
    // Buckets {0,1}->SM0 {2,3}->SM1 {4,5}->SM2 {6,7}->SM3 {8,9}->SM0 {10}->SM1.
    // SM0 runs 4 blocks two at a time: 2 durations; makespan 2 durations.
    const auto r = test::run(test::small_gpu(4), test::app_of({launch(11, 1024, 10 * us)}), "buckets");
    CHECK(blocks_of(r, 0) == std::vector<std::uint64_t>{0, 1, 8, 9});
    CHECK(blocks_of(r, 1) == std::vector<std::uint64_t>{2, 3, 10});
    CHECK(blocks_of(r, 3) == std::vector<std::uint64_t>{6, 7});
    CHECK(r.makespan == 20 * us);
}

TEST_CASE("sorted: 4 full, 2 half, 5 quarter blocks on 4 SMs (Figure 3b)") {
    // Blocks of 4 warps (128 threads); active warps: blocks 0-3 full (4), 4-5 half (2), 6-10 quarter (1).
    // List schedule by decreasing warps, each to the least-loaded SM (ties lowest SM):
    //   full:  SM0=4 SM1=4 SM2=4 SM3=4
    //   half:  SM0=6 SM1=6
    //   quarter: SM2=5 SM3=5, then SM2=6 SM3=6, then SM0=7
    // -> max 7 warps per SM (the paper's optimistic estimate).
    const auto warps = [](std::uint64_t b) { return b < 4 ? 4 : b < 6 ? 2 : 1; };
    auto k = launch(11, 128, 10 * us);
    k.work = std::make_shared<test::LambdaWork>([](std::uint64_t) { return 10 * us; },
                                                [warps](std::uint64_t b, int) { return warps(b); });
    const auto r = test::run(test::small_gpu(4), test::app_of({k}), "sorted");
    CHECK(blocks_of(r, 0) == std::vector<std::uint64_t>{0, 4, 10});
    CHECK(blocks_of(r, 1) == std::vector<std::uint64_t>{1, 5});
    CHECK(blocks_of(r, 2) == std::vector<std::uint64_t>{2, 6, 8});
    CHECK(blocks_of(r, 3) == std::vector<std::uint64_t>{3, 7, 9});
    CHECK(max_warps(r, warps) == 7);
}

TEST_CASE("min: 7 full blocks of 4 warps on 4 SMs spread as 28 warps, 7 per SM (Figure 3a)") {
    // Fluid: ceil(28 / 4) = 7 warps per SM, ignoring block boundaries (eq. 14).
    const auto r = test::run(test::small_gpu(4), test::app_of({launch(7, 128, 10 * us)}), "min");
    std::size_t units = 0;
    for (const auto& [sm, list] : r.per_sm) {
        CHECK(list.size() == 7);
        units += list.size();
    }
    CHECK(units == 28);
    CHECK(r.makespan == 10 * us);
}

TEST_CASE("most-room: each block to the SM with the most room, ties by SM order") {
    // 1 warp blocks: room 32 on every empty SM. Block 0 -> SM0 (tie, lowest), then SM0 has 31,
    // others 32 -> block 1 -> SM1, ... so 6 blocks on 4 SMs spread 2,2,1,1 in order 0,1,2,3,0,1.
    const auto r = test::run(test::small_gpu(4), test::app_of({launch(6, 32, 10 * us)}), "most-room");
    CHECK(blocks_of(r, 0) == std::vector<std::uint64_t>{0, 4});
    CHECK(blocks_of(r, 1) == std::vector<std::uint64_t>{1, 5});
    CHECK(blocks_of(r, 3) == std::vector<std::uint64_t>{3});
}

TEST_CASE("most-room follows the spec's SM order for ties") {
    auto gpu = test::small_gpu(4);
    gpu.sm_order = {2, 0, 3, 1};
    const auto r = test::run(gpu, test::app_of({launch(4, 32, 10 * us)}), "most-room");
    CHECK(blocks_of(r, 2) == std::vector<std::uint64_t>{0});
    CHECK(blocks_of(r, 0) == std::vector<std::uint64_t>{1});
    CHECK(blocks_of(r, 3) == std::vector<std::uint64_t>{2});
    CHECK(blocks_of(r, 1) == std::vector<std::uint64_t>{3});
}

TEST_CASE("round-robin: cyclic over SMs with room") {
    // 2 blocks per SM (1024 threads), 4 SMs, 10 blocks of 10us: first wave 0..7 goes
    // SM0,1,2,3,0,1,2,3; at 10us all free and the cursor is back at SM0: 8 -> SM0, 9 -> SM1.
    const auto r = test::run(test::small_gpu(4), test::app_of({launch(10, 1024, 10 * us)}), "round-robin");
    CHECK(blocks_of(r, 0) == std::vector<std::uint64_t>{0, 4, 8});
    CHECK(blocks_of(r, 1) == std::vector<std::uint64_t>{1, 5, 9});
    CHECK(blocks_of(r, 2) == std::vector<std::uint64_t>{2, 6});
    CHECK(r.makespan == 20 * us);
}

TEST_CASE("waves: 265 blocks of 1024 threads on 132 SMs take two waves plus a tail") {
    // 2 blocks per SM x 132 = 264 resident; block 264 waits for the first wave: 3 waves of 50us?
    // No: 264 start at 0, end at 50us; block 264 starts at 50us and ends at 100us.
    const auto r = test::run(test::small_gpu(132), test::app_of({launch(265, 1024, 50 * us)}), "most-room");
    CHECK(r.makespan == 100 * us);
    CHECK(r.blocks.size() == 265);
}

TEST_CASE("unknown policy names list the known ones") {
    CHECK_THROWS_WITH_AS(scheduler::make_policy("fifo"), doctest::Contains("most-room, round-robin"), InputError);
    CHECK(scheduler::policies().size() == 7);
    CHECK(scheduler::default_policy() == "most-room");
}
