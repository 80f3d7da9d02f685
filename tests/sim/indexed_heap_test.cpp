// IndexedHeap against std::set on random inserts, erases, pops and pruned walks.
#include <doctest/doctest.h>

#include <random>
#include <set>
#include <utility>

#include "gpusched/sim/indexed_heap.h"

namespace gpusched {

TEST_CASE("indexed heap: same order and contents as std::set<(key, id)> under random operations") {
    for (std::uint32_t seed = 1; seed <= 5; ++seed) {
        constexpr std::uint32_t kIds = 300;
        std::mt19937 g(seed);
        sim::IndexedHeap<double> heap(kIds);
        std::set<std::pair<double, std::uint32_t>> reference;
        std::vector<double> key_of(kIds, 0);
        for (int step = 0; step < 20000; ++step) {
            const std::uint32_t id = g() % kIds;
            const int op = static_cast<int>(g() % 5);
            if (op <= 1 && !heap.contains(id)) {  // insert; few distinct keys, so ties by id matter
                key_of[id] = static_cast<double>(g() % 50);
                heap.insert(key_of[id], id);
                reference.emplace(key_of[id], id);
            } else if (op == 2 && heap.contains(id)) {
                heap.erase(id);
                reference.erase({key_of[id], id});
            } else if (op == 4) {  // update: a new key, present or not
                if (heap.contains(id)) reference.erase({key_of[id], id});
                key_of[id] = static_cast<double>(g() % 50);
                heap.update(key_of[id], id);
                reference.emplace(key_of[id], id);
            } else if (op == 3 && !heap.empty()) {
                const auto top = heap.pop();
                REQUIRE(top.key == reference.begin()->first);
                REQUIRE(top.id == reference.begin()->second);
                reference.erase(reference.begin());
            }
            REQUIRE(heap.empty() == reference.empty());
            if (!heap.empty()) {
                CHECK(heap.top().key == reference.begin()->first);
                CHECK(heap.top().id == reference.begin()->second);
            }
        }
        // The pruned walk visits exactly the entries below the limit.
        const double limit = 25;
        std::set<std::pair<double, std::uint32_t>> walked;
        heap.for_each_below([&] { return limit; }, [&](const auto& e) { walked.emplace(e.key, e.id); });
        std::set<std::pair<double, std::uint32_t>> expected(reference.begin(), reference.lower_bound({limit, 0}));
        CHECK(walked == expected);
    }
}

}  // namespace gpusched
