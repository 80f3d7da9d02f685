// EventQueue: events come out in (time, phase, insertion) order whichever lane holds them.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "gpusched/sim/event_queue.h"

using gpusched::Time;
using gpusched::sim::Event;
using gpusched::sim::EventQueue;
using gpusched::sim::Phase;

namespace {

struct Pushed {
    Time time;
    Phase phase;
    std::uint64_t order;  // insertion index
    std::uint32_t payload;
};

/// Pushes with interleaved pops; every pop must return the least (time, phase, insertion)
/// of what is queued -- checked against a plain sorted list.
void check_against_sorted_list(std::uint64_t seed, int operations, Time spread, double pop_share) {
    std::mt19937_64 rng(seed);
    EventQueue queue;
    std::vector<Pushed> pending;
    std::uint64_t order = 0;
    Time now = 0;
    for (int op = 0; op < operations; ++op) {
        const bool pop = !pending.empty() && std::uniform_real_distribution<double>(0, 1)(rng) < pop_share;
        if (!pop) {
            const Time when = now + (spread == 0 ? 0 : rng() % spread);
            const auto phase = static_cast<Phase>(rng() % 3);
            const auto payload = static_cast<std::uint32_t>(rng() % 1000);
            queue.push(when, phase, payload);
            pending.push_back({when, phase, order++, payload});
            continue;
        }
        const auto least = std::min_element(pending.begin(), pending.end(), [](const Pushed& a, const Pushed& b) {
            return std::tie(a.time, a.phase, a.order) < std::tie(b.time, b.phase, b.order);
        });
        REQUIRE(queue.top().time == least->time);
        const Event e = queue.pop();
        REQUIRE(e.time == least->time);
        REQUIRE(e.phase() == least->phase);
        REQUIRE(e.payload() == least->payload);
        now = e.time;
        pending.erase(least);
        REQUIRE(queue.size() == pending.size());
    }
}

}  // namespace

TEST_CASE("event queue: scattered times go through the heap in order") {
    for (std::uint64_t seed = 1; seed <= 20; ++seed) check_against_sorted_list(seed, 3000, 1000, 0.45);
}

TEST_CASE("event queue: equal durations go through the run lane in order") {
    // now + constant: every push is >= the last one, so everything takes the run lane,
    // which must also grow past its first capacity (64) and wrap around.
    EventQueue queue;
    for (std::uint32_t i = 0; i < 200; ++i) queue.push(50, Phase::completion, i);
    for (std::uint32_t i = 0; i < 10000; ++i) {
        const Event e = queue.pop();
        CHECK(e.payload() == i % 200);  // round after round in insertion order
        CHECK(e.time == 50 + 50 * (i / 200));
        queue.push(e.time + 50, Phase::completion, e.payload());
    }
    CHECK(queue.size() == 200);
}

TEST_CASE("event queue: ties, zero spreads and mixed lanes") {
    for (std::uint64_t seed = 100; seed <= 110; ++seed) {
        check_against_sorted_list(seed, 2000, 0, 0.3);   // everything at one instant: phase, then insertion
        check_against_sorted_list(seed, 2000, 3, 0.5);   // many ties
        check_against_sorted_list(seed, 2000, 1 << 20, 0.7);
    }
}

TEST_CASE("event queue: an out-of-range payload is a logic error") {
    EventQueue queue;
    CHECK_THROWS_AS(queue.push(0, Phase::operation, static_cast<std::uint32_t>(Event::kMaxPayload + 1)), std::logic_error);
}
