// RoomRanking::take_many takes exactly what successive take_best() calls would, in the same order.
#include <doctest/doctest.h>

#include <random>
#include <vector>

#include "../../scheduler/src/rank_set.h"

namespace gpusched::scheduler {

TEST_CASE("room ranking: take_many matches successive take_best calls") {
    std::mt19937 rng(20261122);
    for (int trial = 0; trial < 400; ++trial) {
        const int positions = 1 + static_cast<int>(rng() % 200);
        const int max_room = 1 + static_cast<int>(rng() % 8);
        RoomRanking bulk(positions, max_room);
        RoomRanking single(positions, max_room);
        for (int round = 0; round < 6; ++round) {
            // Some positions change room, some beyond max_room (they share the top level).
            const int changes = static_cast<int>(rng() % static_cast<unsigned>(positions + 1));
            for (int c = 0; c < changes; ++c) {
                const int pos = static_cast<int>(rng() % static_cast<unsigned>(positions));
                const int room = static_cast<int>(rng() % static_cast<unsigned>(max_room + 3));
                bulk.set(pos, room);
                single.set(pos, room);
            }
            const std::size_t limit = rng() % 300;
            std::vector<int> taken_bulk;
            const std::size_t n = bulk.take_many(limit, [&](int pos) { taken_bulk.push_back(pos); });
            std::vector<int> taken_single;
            while (taken_single.size() < limit) {
                const int pos = single.take_best();
                if (pos < 0) break;
                taken_single.push_back(pos);
            }
            REQUIRE(n == taken_bulk.size());
            REQUIRE(taken_bulk == taken_single);
            for (int pos = 0; pos < positions; ++pos) REQUIRE(bulk.room(pos) == single.room(pos));
            REQUIRE(bulk.known_empty() == single.known_empty());
        }
    }
}

}  // namespace gpusched::scheduler
