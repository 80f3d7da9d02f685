// for_each_index: every index once, results by index, the lowest index's exception whatever the threads' timing.
#include <doctest/doctest.h>

#include <atomic>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpusched/support/parallel_indices.h"

TEST_CASE("for_each_index: each index runs once and fills its own slot") {
    for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{7}, std::size_t{1000}}) {
        CAPTURE(n);
        std::vector<std::size_t> squares(n, 0);
        std::atomic<std::size_t> calls{0};
        gpusched::for_each_index(n, [&](std::size_t i) {
            squares[i] = i * i;
            ++calls;
        });
        CHECK(calls == n);
        for (std::size_t i = 0; i < n; ++i) CHECK(squares[i] == i * i);
    }
}

TEST_CASE("for_each_index: the exception of the lowest failing index, after every job ran") {
    // Indices 3, 10 and 40 of 64 throw; whichever thread gets there first, the caller sees index 3's error
    // and every other index still ran (61 of them).
    for (int repeat = 0; repeat < 20; ++repeat) {
        std::atomic<int> ran{0};
        try {
            gpusched::for_each_index(64, [&](std::size_t i) {
                if (i == 3 || i == 10 || i == 40) throw std::runtime_error("job " + std::to_string(i));
                ++ran;
            });
            FAIL("no exception");
        } catch (const std::runtime_error& e) {
            CHECK(std::string(e.what()) == "job 3");
        }
        CHECK(ran == 61);
    }
}

TEST_CASE("worker_threads: at least 1, at most the jobs") {
    CHECK(gpusched::worker_threads(0) == 1);
    CHECK(gpusched::worker_threads(1) == 1);
    CHECK(gpusched::worker_threads(1000) >= 1);
    CHECK(gpusched::worker_threads(2) <= 2);
}
