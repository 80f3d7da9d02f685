// The completion channel: one release per interval, first come first served or in the GPU's sweep order.
#include <doctest/doctest.h>

#include "gpusched/support/input_error.h"
#include "gpusched/sim/engine/swept_completion_queue.h"
#include "support/sim_fixtures.h"

namespace gpusched {

namespace {

/// 3 SMs, two 1024-thread blocks each; no launch or dispatch overheads; a channel that takes
/// one completion per 10 ns.
hw::GpuSpec channel_gpu() {
    hw::GpuSpec gpu = test::small_gpu(3);
    gpu.block_completion_interval_ns = 10;
    return gpu;
}

/// 9 blocks of 100 ns: blocks 0..5 fill the GPU at t = 0 (most-room: SMs 0 1 2 0 1 2) and all
/// end at 100 ns; blocks 6..8 wait for the channel to release their slots.
workloads::Application nine_blocks() { return test::app_of({test::launch(9, 1024, 100'000)}); }

}  // namespace

TEST_CASE("completion channel, first come first served: the slots of blocks ending together free one per interval") {
    // t = 100 ns: block 0 (SM 0) reaches a free channel and is released at once -> block 6 on
    // SM 0 at 100 ns; blocks 1..5 queue in their end order (their completion events' order):
    // block 1 (SM 1) released at 110 -> block 7 on SM 1; block 2 (SM 2) at 120 -> block 8 on
    // SM 2. Makespan 120 + 100 = 220 ns.
    const test::Recorder r = test::run(channel_gpu(), nine_blocks(), "most-room");
    CHECK(r.per_sm.at(0) == std::vector<std::uint64_t>{0, 3, 6});
    CHECK(r.per_sm.at(1) == std::vector<std::uint64_t>{1, 4, 7});
    CHECK(r.per_sm.at(2) == std::vector<std::uint64_t>{2, 5, 8});
    for (const auto& b : r.blocks) {
        if (b.block < 6) CHECK(b.start == 0);
        if (b.block >= 6) CHECK(b.start == 100'000 + static_cast<Time>(b.block - 6) * 10'000);
    }
    CHECK(r.makespan == 220'000);
}

TEST_CASE("completion channel with a sweep: queued completions leave visit by visit, not in end order") {
    // Sweep: visit 0 = {SM 2} (1 per visit), visit 1 = {SMs 0, 1} (1 per visit).
    // t = 100 ns: block 0 (SM 0) finds the channel free and nothing queued: released at once
    // -> block 6 on SM 0. Blocks 1..5 queue: SM 0 [3], SM 1 [1, 4], SM 2 [2, 5].
    // t = 110: visit 0 takes SM 2's oldest (block 2) -> block 7 on SM 2.
    // t = 120: visit 0 has taken its 1; visit 1 takes round-robin from SM 0 (block 3) -> block 8
    // on SM 0. So SM 0 runs 4 blocks and SM 1 only its first two; the makespan is unchanged.
    hw::GpuSpec gpu = channel_gpu();
    gpu.completion_sweep = hw::CompletionSweep{{{{2}, 1}, {{0, 1}, 1}}};
    const test::Recorder r = test::run(gpu, nine_blocks(), "most-room");
    CHECK(r.per_sm.at(0) == std::vector<std::uint64_t>{0, 3, 6, 8});
    CHECK(r.per_sm.at(1) == std::vector<std::uint64_t>{1, 4});
    CHECK(r.per_sm.at(2) == std::vector<std::uint64_t>{2, 5, 7});
    CHECK(r.makespan == 220'000);
    // Without a channel the sweep has nothing to order: all six slots free at 100 ns.
    gpu.block_completion_interval_ns.reset();
    const test::Recorder free = test::run(gpu, nine_blocks(), "most-room");
    for (const auto& b : free.blocks)
        if (b.block >= 6) CHECK(b.start == 100'000);
}

TEST_CASE("a sweep that does not cover the GPU's SMs is an input error naming the key") {
    hw::GpuSpec gpu = channel_gpu();
    gpu.completion_sweep = hw::CompletionSweep{{{{0, 1}, 1}}};
    const auto policy = scheduler::make_policy("most-room");
    const workloads::Application app = nine_blocks();
    CHECK_THROWS_WITH_AS(sim::Engine(gpu, app, *policy, "fixed"), doctest::Contains("topology.completion_sweep: SM 2 is in no visit"),
                         InputError);
    // The h100 preset's sweep on a 3-SM GPU names SMs that do not exist: checked before any use.
    gpu.completion_sweep = hw::resolve_gpu("h100").completion_sweep;
    CHECK_THROWS_WITH_AS(sim::Engine(gpu, app, *policy, "fixed"), doctest::Contains("outside 0..2"), InputError);
}

TEST_CASE("swept completion queue on the h100 sweep: every SM waiting") {
    const auto sweep = hw::resolve_gpu("h100").completion_sweep;
    REQUIRE(sweep);
    sim::SweptCompletionQueue queue(*sweep, 132);
    // Two completions per SM: SM s pushes s, then 1000 + s (each SM's leave in push order).
    for (int round = 0; round < 2; ++round)
        for (int sm = 0; sm < 132; ++sm) queue.push(sm, static_cast<std::uint32_t>(round * 1000 + sm));
    std::vector<std::uint32_t> first;
    for (int i = 0; i < 30; ++i) first.push_back(queue.pop());
    // Row A (1.5: takes 1), the lead (1.5: 1), rows B..H (3 each, from their first SM), then
    // row A again (credit 0.5 + 1.5: takes 2, after SM 0), the lead (2), row B (after SM 18).
    const std::vector<std::uint32_t> expected{0,  124, 2,  3,   18,  4,  5,  20, 6,  7,  22, 8,  9,  24, 10,
                                              11, 26,  12, 13,  28,  14, 15, 30, 1,  16, 125, 126, 19, 34, 35};
    CHECK(first == expected);
    // Everything comes out exactly once; each SM's two completions in push order.
    std::vector<int> seen(2000, 0);
    for (auto at : first) ++seen[at];
    while (!queue.empty()) {
        const auto at = queue.pop();
        if (at >= 1000) CHECK(seen[at - 1000] == 1);
        ++seen[at];
    }
    for (int sm = 0; sm < 132; ++sm) CHECK(seen[static_cast<std::size_t>(sm)] + seen[static_cast<std::size_t>(1000 + sm)] == 2);
}

TEST_CASE("swept completion queue: visits with nothing queued are skipped, fractions carry per visit") {
    // Visit 0 = {0} takes 0.5 per visit (every second visit), visit 1 = {1, 2} takes 2.
    const hw::CompletionSweep sweep{{{{0}, 0.5}, {{1, 2}, 2}}};
    sim::SweptCompletionQueue queue(sweep, 3);
    for (std::uint32_t i = 0; i < 4; ++i) {
        queue.push(0, 100 + i);
        queue.push(1, 200 + i);
        queue.push(2, 300 + i);
    }
    // Pass 1: visit 0 has credit 0.5 (no take), visit 1 takes SMs 1, 2. Pass 2: visit 0 takes
    // SM 0 (credit 1), visit 1 takes 1, 2. Pass 3 like pass 1, pass 4 like pass 2.
    std::vector<std::uint32_t> order;
    for (int i = 0; i < 10; ++i) order.push_back(queue.pop());
    CHECK(order == std::vector<std::uint32_t>{200, 300, 100, 201, 301, 202, 302, 101, 203, 303});
    // Only SM 0 left: visit 1 is skipped (nothing queued), visit 0 takes every second pass.
    CHECK(queue.pop() == 102);
    CHECK(queue.pop() == 103);
    CHECK(queue.empty());
    // The position carries over to the next backlog: visit 0 (credit 0 after its take) is
    // passed over, visit 1 takes SM 1 first (its round-robin is past SM 2)...
    queue.push(1, 210);
    queue.push(2, 310);
    queue.push(0, 110);
    CHECK(queue.pop() == 210);
    while (!queue.empty()) queue.pop();
    // ... unless restarted: first visit, no credit, round-robins at their first SM.
    queue.push(2, 320);
    queue.push(1, 220);
    queue.restart();
    CHECK(queue.pop() == 220);
}

}  // namespace gpusched
