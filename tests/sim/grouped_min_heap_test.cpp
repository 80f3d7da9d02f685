// GroupedMinHeap against IndexedHeap<double>: the same least (key, id) after any sequence of changes.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <utility>

#include "gpusched/sim/grouped_min_heap.h"
#include "gpusched/sim/indexed_heap.h"

using namespace gpusched::sim;

// The bandwidth share's started blocks: ids = SM x slots + slot. Keys from a small set, so that ties
// (equal v_end on several SMs and slots) are common and the id must break them as IndexedHeap does.
TEST_CASE("grouped min heap: the same top as one indexed heap over random inserts, updates and erases") {
    for (const auto& [groups, per_group] : {std::pair{1, 1}, std::pair{3, 4}, std::pair{8, 32}, std::pair{132, 32}}) {
        CAPTURE(groups);
        CAPTURE(per_group);
        const std::size_t ids = static_cast<std::size_t>(groups) * per_group;
        for (unsigned seed = 1; seed <= 20; ++seed) {
            CAPTURE(seed);
            std::mt19937 rng(seed);
            GroupedMinHeap grouped(static_cast<std::size_t>(groups), static_cast<std::size_t>(per_group));
            IndexedHeap<double> one(ids);
            std::uniform_int_distribution<std::uint32_t> pick_id(0, static_cast<std::uint32_t>(ids - 1));
            std::uniform_int_distribution<int> pick_key(0, 12);
            std::uniform_int_distribution<int> pick_op(0, 9);
            std::uniform_int_distribution<int> batch(1, 6);
            for (int step = 0; step < 400; ++step) {
                // Several changes between looks, often in one group (one SM's blocks change rate together).
                const std::uint32_t group_first = pick_id(rng) / per_group * per_group;
                for (int k = batch(rng); k > 0; --k) {
                    const std::uint32_t id = pick_op(rng) < 6 ? group_first + pick_id(rng) % per_group : pick_id(rng);
                    const double key = pick_key(rng) * 0.5;
                    if (pick_op(rng) < 3) {
                        grouped.erase(id);
                        one.erase(id);
                    } else {
                        grouped.update(key, id);
                        one.update(key, id);
                    }
                    REQUIRE(grouped.contains(id) == one.contains(id));
                }
                REQUIRE(grouped.empty() == one.empty());
                if (one.empty()) continue;
                const auto a = grouped.top();
                const auto b = one.top();
                CHECK(a.key == b.key);
                CHECK(a.id == b.id);
            }
        }
    }
}
