// SsspTables' per-block searches (count_above, FrontierTable::find) against std::upper_bound and a linear scan.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "gpusched/workloads/sssp_work.h"

using gpusched::workloads::SsspTables;

TEST_CASE("sssp tables: count_above and find agree with the standard searches on random blocks") {
    // Blocks of 0 to 40 sorted values (repeats, runs of one value, empty blocks), asked for thresholds
    // below, between, on and above their values: count_above = values past std::upper_bound, and find
    // returns the entry of exactly that iteration or none (a linear scan says which).
    std::mt19937 rng(3);
    SsspTables::SortedPerBlock sorted;
    SsspTables::FrontierTable frontier;
    sorted.offsets.push_back(0);
    frontier.offsets.push_back(0);
    const int blocks = 300;
    for (int b = 0; b < blocks; ++b) {
        const int n = static_cast<int>(rng() % 41);
        std::vector<std::uint32_t> values;
        for (int i = 0; i < n; ++i) values.push_back(rng() % 60);
        std::sort(values.begin(), values.end());
        sorted.values.insert(sorted.values.end(), values.begin(), values.end());
        sorted.offsets.push_back(sorted.values.size());
        values.erase(std::unique(values.begin(), values.end()), values.end());  // one entry per iteration
        for (std::uint32_t it : values) {
            SsspTables::FrontierEntry e;
            e.iteration = it;
            e.nodes = static_cast<std::uint32_t>(frontier.entries.size());  // tells the entries apart
            frontier.entries.push_back(e);
            frontier.iterations.push_back(it);
        }
        frontier.offsets.push_back(frontier.entries.size());
    }
    int wrong = 0, found = 0;
    for (int b = 0; b < blocks; ++b) {
        const auto ub = static_cast<std::uint64_t>(b);
        const auto v0 = sorted.values.begin() + static_cast<std::ptrdiff_t>(sorted.offsets[ub]);
        const auto v1 = sorted.values.begin() + static_cast<std::ptrdiff_t>(sorted.offsets[ub + 1]);
        for (std::uint32_t t = 0; t <= 61; ++t) {
            if (sorted.count_above(ub, t) != static_cast<std::uint32_t>(v1 - std::upper_bound(v0, v1, t))) ++wrong;
            const SsspTables::FrontierEntry* expected = nullptr;
            for (std::size_t i = frontier.offsets[ub]; i < frontier.offsets[ub + 1]; ++i)
                if (frontier.entries[i].iteration == t) expected = &frontier.entries[i];
            if (frontier.find(ub, t) != expected) ++wrong;
            found += expected != nullptr;
        }
    }
    CHECK(wrong == 0);
    CHECK(found > 1000);
    CHECK_THROWS_AS((void)sorted.count_above(blocks, 0), std::out_of_range);  // past the table: no silent read
}
