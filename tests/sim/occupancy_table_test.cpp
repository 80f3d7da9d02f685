// OccupancyTable: per-launch occupancy read like a vector, stored once per distinct result.
#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

#include "gpusched/sim/occupancy_table.h"

using namespace gpusched;

namespace {

hw::OccupancyResult with_blocks(int blocks_per_sm) {
    hw::OccupancyResult r;
    r.blocks_per_sm = blocks_per_sm;
    return r;
}

}  // namespace

TEST_CASE("occupancy table: launches that share a result read it, and it is stored once") {
    // Launches 0..999: launch 0 has 2 blocks/SM, every later one shares it; launch 1000 has its own 8.
    sim::OccupancyTable table;
    table.push_back(with_blocks(2));
    for (int i = 1; i < 1000; ++i) table.push_back_same_as(0);
    table.push_back(with_blocks(8));
    REQUIRE(table.size() == 1001);
    CHECK(table.distinct() == 2);
    CHECK(table[0].blocks_per_sm == 2);
    CHECK(table[999].blocks_per_sm == 2);
    CHECK(&table[999] == &table[0]);  // one stored result
    CHECK(table.at(1000).blocks_per_sm == 8);
    CHECK(table.front().blocks_per_sm == 2);
    CHECK_THROWS_AS((void)table.at(1001), std::out_of_range);
    CHECK_THROWS_AS(table.push_back_same_as(5000), std::out_of_range);
    // As a plain vector: one copy per launch, in launch order.
    const std::vector<hw::OccupancyResult> copies = table;
    REQUIRE(copies.size() == 1001);
    CHECK(copies[500].blocks_per_sm == 2);
    CHECK(copies[1000].blocks_per_sm == 8);
}

TEST_CASE("occupancy table: empty") {
    const sim::OccupancyTable table;
    CHECK(table.empty());
    CHECK(table.size() == 0);
    CHECK_THROWS_AS((void)table.front(), std::out_of_range);
}
