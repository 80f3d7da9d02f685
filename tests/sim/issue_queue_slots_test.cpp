// IssueQueue's warp slots against a brute-force assignment: each warp the lowest free slot, the rest round-robin.
#include <doctest/doctest.h>

#include <map>
#include <random>
#include <vector>

#include "gpusched/sim/execution/issue_queue.h"

using gpusched::sim::IssueQueue;

namespace {

/// The rule of issue_queue.h, one warp at a time: slot w (the lowest free one) belongs to
/// sub-partition w mod P; warps beyond the free slots go round-robin from the last one taken.
struct Reference {
    int parts;
    std::vector<int> owner;  // per warp slot: the block slot holding it, -1 free
    std::map<int, std::vector<int>> counts;

    void add(int slot, int warps) {
        std::vector<int> c(static_cast<std::size_t>(parts), 0);
        int last = parts - 1;
        for (int w = 0; w < warps; ++w) {
            int free_slot = -1;
            for (std::size_t i = 0; i < owner.size() && free_slot < 0; ++i)
                if (owner[i] < 0) free_slot = static_cast<int>(i);
            if (free_slot < 0) {
                last = (last + 1) % parts;
            } else {
                owner[static_cast<std::size_t>(free_slot)] = slot;
                last = free_slot % parts;
            }
            ++c[static_cast<std::size_t>(last)];
        }
        counts[slot] = c;
    }
    void remove(int slot) {
        for (int& o : owner)
            if (o == slot) o = -1;
        counts.erase(slot);
    }
};

}  // namespace

TEST_CASE("issue queue: warp slots and sub-partition counts as the one-warp-at-a-time rule gives them") {
    // Sub-partition counts dividing 64 (the masked count) and not (3, 5: one slot at a time), warp slots
    // within one word, exactly one, and over several with a partial last word (100, 130), blocks of 1 to
    // 40 warps so that words fill, split across words and overflow.
    std::mt19937 rng(5);
    for (const int parts : {1, 2, 3, 4, 5, 8}) {
        for (const int warp_slots : {6, 64, 100, 130}) {
            const int block_slots = 24;
            IssueQueue queue(parts, warp_slots, block_slots, 1.0);
            Reference ref{parts, std::vector<int>(static_cast<std::size_t>(warp_slots), -1), {}};
            std::uniform_int_distribution<int> warps(1, 40);
            std::uniform_int_distribution<int> pick(0, block_slots - 1);
            int mismatches = 0;
            for (int step = 0; step < 400; ++step) {
                const int slot = pick(rng);
                if (ref.counts.count(slot)) {
                    queue.remove(slot);
                    ref.remove(slot);
                } else {
                    const int n = warps(rng);
                    queue.add(slot, n, 2.0);
                    ref.add(slot, n);
                }
                for (const auto& [s, c] : ref.counts)
                    for (int p = 0; p < parts; ++p)
                        if (queue.warps_on(s, p) != c[static_cast<std::size_t>(p)]) ++mismatches;
            }
            CAPTURE(parts);
            CAPTURE(warp_slots);
            CHECK(mismatches == 0);
        }
    }
}

TEST_CASE("issue queue: a block beyond the free warp slots takes the free ones first, then counts round-robin") {
    // 4 sub-partitions, 6 warp slots. A holds 0-3 (one per sub-partition); B's 5 warps take slots 4 and 5
    // (sub-partitions 0 and 1), then count on 2, 3 and 0 (round-robin after the last slot's sub-partition).
    IssueQueue queue(4, 6, 4, 1.0);
    queue.add(0, 4, 1.0);
    queue.add(1, 5, 1.0);
    CHECK(queue.warps_on(1, 0) == 2);
    CHECK(queue.warps_on(1, 1) == 1);
    CHECK(queue.warps_on(1, 2) == 1);
    CHECK(queue.warps_on(1, 3) == 1);
    queue.remove(0);  // slots 0-3 free again: C's 3 warps take 0, 1 and 2
    queue.add(2, 3, 1.0);
    CHECK(queue.warps_on(2, 0) == 1);
    CHECK(queue.warps_on(2, 1) == 1);
    CHECK(queue.warps_on(2, 2) == 1);
    CHECK(queue.warps_on(2, 3) == 0);
}
