// IssueQueue's incremental update against the full recomputation, bit for bit, over random adds and removes.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "gpusched/sim/execution/issue_queue.h"
#include "gpusched/sim/execution/mva_memo.h"

using gpusched::sim::IssueQueue;
using gpusched::sim::AgeStepMemo;

namespace {

struct Shape {
    int parts, warp_slots, block_slots, fair_warps;
};

// Drives two queues, one incremental and one recomputing everything at each update, through the same
// random sequence: blocks join as the youngest and leave in any order (usually the oldest, as under the
// age order), with several changes between updates at times. Every rate must be the same double.
void compare(const Shape& shape, std::uint32_t seed, int steps) {
    IssueQueue fast(shape.parts, shape.warp_slots, shape.block_slots, 1.0, shape.fair_warps, true);
    IssueQueue full(shape.parts, shape.warp_slots, shape.block_slots, 1.0, shape.fair_warps, false);
    // A third with its age-order steps recalled from a memo (as SharedExecution's queues are): the same bits.
    AgeStepMemo memo;
    IssueQueue recalled(shape.parts, shape.warp_slots, shape.block_slots, 1.0, shape.fair_warps, true);
    recalled.recall_from(&memo);
    std::mt19937 rng(seed);
    std::vector<int> resident;  // oldest first
    std::vector<int> free_slots;
    for (int s = shape.block_slots - 1; s >= 0; --s) free_slots.push_back(s);
    const std::vector<double> thinks{0.0, 0.5, 2.0, 7.0, 40.0};
    const std::vector<int> warps{1, 1, 2, 4, 8, 32};
    int compared = 0;
    for (int step = 0; step < steps; ++step) {
        const bool join = resident.empty() || (!free_slots.empty() && rng() % 2 == 0);
        if (join) {
            const int slot = free_slots.back();
            free_slots.pop_back();
            const int w = warps[rng() % warps.size()];
            const double think = thinks[rng() % thinks.size()];
            fast.add(slot, w, think);
            full.add(slot, w, think);
            recalled.add(slot, w, think);
            resident.push_back(slot);
        } else {
            const std::size_t at = rng() % 3 == 0 ? rng() % resident.size() : 0;
            const int slot = resident[at];
            resident.erase(resident.begin() + static_cast<std::ptrdiff_t>(at));
            free_slots.push_back(slot);
            fast.remove(slot);
            full.remove(slot);
            recalled.remove(slot);
        }
        if (rng() % 4 == 0) continue;  // more changes before the next update
        fast.update();
        full.update();
        recalled.update();
        for (int slot = 0; slot < shape.block_slots; ++slot) {
            CAPTURE(step);
            CAPTURE(slot);
            REQUIRE(fast.rate(slot) == full.rate(slot));
            REQUIRE(recalled.rate(slot) == full.rate(slot));
        }
        ++compared;
    }
    CHECK(compared > steps / 2);
}

}  // namespace

TEST_CASE("incremental issue-queue update: the same rates as recomputing every sub-partition") {
    // The H100's SM (4 schedulers, 64 warp slots, 32 blocks, fair up to 3 warps), the same without the
    // fair regime, a small SM whose warps overflow its slots, and one scheduler.
    const std::vector<Shape> shapes{{4, 64, 32, 3}, {4, 64, 32, 0}, {2, 8, 6, 1}, {1, 16, 8, 2}};
    for (const Shape& shape : shapes)
        for (std::uint32_t seed = 1; seed <= 20; ++seed) {
            CAPTURE(seed);
            compare(shape, seed, 400);
        }
}
