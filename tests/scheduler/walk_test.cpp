// Policy `walk`: hand-derived block->SM orders on small walks, limits, masks, and state between launches.
#include <doctest/doctest.h>

#include "gpusched/support/input_error.h"
#include "../support/sim_fixtures.h"

using namespace gpusched;

namespace {

constexpr Time us = 1'000'000;  // ps

/// small_gpu(sms) (2 blocks of 1024 threads per SM) with the given walk.
hw::GpuSpec gpu_with(int sms, std::vector<int> lead, std::vector<std::vector<int>> rows, int first_gap, int gap,
                     int start_row = 0, int lead_start = 0, int lead_step = 1) {
    hw::GpuSpec g = test::small_gpu(sms);
    g.dispatch_walk = hw::DispatchWalk{std::move(lead), std::move(rows), {}, first_gap, gap, start_row, lead_start, lead_step};
    return g;
}

/// SM of each block of launch `launch`, by block index.
std::vector<int> sms_by_block(const test::Recorder& r, std::size_t launch = 0) {
    std::vector<int> out;
    for (const auto& b : r.blocks) {
        if (b.launch != launch) continue;
        if (out.size() <= b.block) out.resize(b.block + 1, -1);
        out[b.block] = b.sm;
    }
    return out;
}

}  // namespace

TEST_CASE("walk: lead first, rows cyclically, the lead again after lead_first_gap rows") {
    // 5 SMs x 2 slots; lead [4]; rows [0 1] [2] [3]; lead due after 2 rows, then every 3.
    // 10 blocks = capacity, limit 10 / 5 = 2: 4 | 0 1 | 2 | (due) 4 | 3 | 0 1 | 2 | (due, but
    // SM 4 is full: skipped) 3.
    const auto gpu = gpu_with(5, {4}, {{0, 1}, {2}, {3}}, 2, 3);
    const auto r = test::run(gpu, test::app_of({test::launch(10, 1024, 10 * us)}), "walk");
    CHECK(sms_by_block(r) == std::vector<int>{4, 0, 1, 2, 4, 3, 0, 1, 2, 3});
}

TEST_CASE("walk: below capacity no SM gets a second block before every SM has one") {
    // 6 blocks on 5 SMs: limit max(1, 6 / 5) = 1. 4 | 0 1 | 2 | (lead due but SM 4 is at the
    // limit: stays due) 3 | every SM has 1: limit 2, the due lead goes first: 4.
    const auto gpu = gpu_with(5, {4}, {{0, 1}, {2}, {3}}, 2, 3);
    const auto r = test::run(gpu, test::app_of({test::launch(6, 1024, 10 * us)}), "walk");
    CHECK(sms_by_block(r) == std::vector<int>{4, 0, 1, 2, 3, 4});
}

TEST_CASE("walk: start_row and lead_start rotate where the first launch begins") {
    // lead [3 4] from index 1: 4 3; rows [0] [1] [2] from row 1: 1 2 0 (limit 5 / 5 = 1).
    const auto gpu = gpu_with(5, {3, 4}, {{0}, {1}, {2}}, 2, 3, 1, 1);
    const auto r = test::run(gpu, test::app_of({test::launch(5, 1024, 10 * us)}), "walk");
    CHECK(sms_by_block(r) == std::vector<int>{4, 3, 1, 2, 0});
}

TEST_CASE("walk: the next launch starts after the previous launch's last row and lead block") {
    // Launch 0 as above: 4 3 1 2 0. Its last block outside the lead ran in row 0 (SM 0), so
    // launch 1 starts at row 1; its last lead block ran on SM 3 (lead index 0), so launch 1's
    // lead starts at index 0: 3 4 1 2 0.
    const auto gpu = gpu_with(5, {3, 4}, {{0}, {1}, {2}}, 2, 3, 1, 1);
    const auto r = test::run(gpu, test::app_of({test::launch(5, 1024, 10 * us), test::launch(5, 1024, 10 * us)}), "walk");
    CHECK(sms_by_block(r, 0) == std::vector<int>{4, 3, 1, 2, 0});
    CHECK(sms_by_block(r, 1) == std::vector<int>{3, 4, 1, 2, 0});
}

TEST_CASE("walk: lead_step aligns the next lead start down to a multiple of the step") {
    // lead [4 5 6 7] (step 2), rows [0 1] [2 3]; 4 blocks (limit 1 on 8 SMs) all go to the lead:
    // 4 5 6 7. The last lead block ran on SM 7 (index 3): the next lead starts at index 2:
    // 6 7 4 5. No block ran outside the lead, so the row state stays at row 0.
    const auto gpu = gpu_with(8, {4, 5, 6, 7}, {{0, 1}, {2, 3}}, 1, 1, 0, 0, 2);
    const auto r = test::run(gpu, test::app_of({test::launch(4, 1024, 10 * us), test::launch(5, 1024, 10 * us)}), "walk");
    CHECK(sms_by_block(r, 0) == std::vector<int>{4, 5, 6, 7});
    CHECK(sms_by_block(r, 1) == std::vector<int>{6, 7, 4, 5, 0});
}

TEST_CASE("walk: a round with fewer blocks than SMs fills a quota, one SM per TPC first") {
    // 5 SMs, TPCs of 2 (the h100 limits): lead [4]; rows [0 1] [2 3]; groups [0 1 2 3].
    // Quota order: lead 4, then the first SM of each TPC (0, 2), then the second (1, 3).
    // 3 blocks (< 5 SMs): quota {4, 0, 2}: 4 | 0 (1 not in it) | 2.
    hw::GpuSpec gpu = gpu_with(5, {4}, {{0, 1}, {2, 3}}, 2, 3);
    gpu.dispatch_walk->groups = {{0, 1, 2, 3}};
    const auto three = test::run(gpu, test::app_of({test::launch(3, 1024, 10 * us)}), "walk");
    CHECK(sms_by_block(three) == std::vector<int>{4, 0, 2});
    // 6 blocks: the first round (limit 1) is full: 4 | 0 1 | 2 3; the lead is due; the second
    // round has 1 block for 5 SMs: quota {4}: the lead takes it.
    const auto six = test::run(gpu, test::app_of({test::launch(6, 1024, 10 * us)}), "walk");
    CHECK(sms_by_block(six) == std::vector<int>{4, 0, 1, 2, 3, 4});
}

TEST_CASE("walk: SMs outside the stream's mask are skipped, rows left empty still count") {
    // Mask {1, 3} on the first test's walk: lead [4] empty; rows [1] [] [3]; 4 blocks, limit 2:
    // 1 | (empty row) | (lead due, empty) 3 | 1 | 3.
    const auto gpu = gpu_with(5, {4}, {{0, 1}, {2}, {3}}, 2, 3);
    workloads::StreamConfig masked;
    masked.id = 0;
    masked.sm_mask = {1, 3};
    auto app = test::app_of({test::launch(4, 1024, 10 * us)});
    app.streams = {masked};
    const auto r = test::run(gpu, app, "walk");
    CHECK(sms_by_block(r) == std::vector<int>{1, 3, 1, 3});
}

TEST_CASE("walk: after the first wave a freed slot takes the next block") {
    // Rows [0] [1] [2], 7 blocks: blocks 0..5 fill both slots of SMs 0 1 2 0 1 2; block 0
    // ends first (10 us, the others 50 us), so block 6 goes to SM 0 at 10 us.
    const auto gpu = gpu_with(3, {}, {{0}, {1}, {2}}, 1, 1);
    auto k = test::launch(7, 1024, 50 * us);
    k.work = std::make_shared<test::LambdaWork>([](std::uint64_t b) { return b == 0 ? 10 * us : 50 * us; });
    const auto r = test::run(gpu, test::app_of({k}), "walk");
    CHECK(sms_by_block(r) == std::vector<int>{0, 1, 2, 0, 1, 2, 0});
    CHECK(r.makespan == 60 * us);
}

TEST_CASE("walk: a GPU without topology.dispatch_walk is an input error naming the key") {
    CHECK_THROWS_WITH_AS(test::run(test::small_gpu(4), test::app_of({test::launch(4, 1024, us)}), "walk"),
                         doctest::Contains("topology.dispatch_walk"), InputError);
}
