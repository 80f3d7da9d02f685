// CompletionGroups alone: one event per distinct end within a batch, groups for shared ends.
#include <doctest/doctest.h>

#include <vector>

#include "gpusched/sim/engine/completion_groups.h"

namespace gpusched {

namespace {

struct Popped {
    Time time;
    std::size_t payload;
};

std::vector<Popped> drain(sim::EventQueue& queue) {
    std::vector<Popped> out;
    while (!queue.empty()) {
        const sim::Event e = queue.pop();
        out.push_back({e.time, e.payload()});
    }
    return out;
}

}  // namespace

TEST_CASE("completion groups: a batch's blocks ending together share one event") {
    // Resident indices 10..15 ending at 5, 5, 7, 7, 7, 9: three events, at 5 (group {10, 11}),
    // 7 (group {12, 13, 14}) and 9 (index 15 alone), pushed in that order.
    sim::CompletionGroups groups;
    sim::EventQueue queue;
    sim::CompletionGroups::Batch batch;
    const std::vector<std::pair<std::uint32_t, Time>> blocks = {{10, 5}, {11, 5}, {12, 7}, {13, 7}, {14, 7}, {15, 9}};
    for (const auto& [at, end] : blocks) groups.add(batch, queue, at, end);
    groups.finish(batch, queue);
    const std::vector<Popped> events = drain(queue);
    REQUIRE(events.size() == 3);
    CHECK(events[0].time == 5);
    REQUIRE(sim::CompletionGroups::is_group(events[0].payload));
    CHECK(groups.members(sim::CompletionGroups::id_of(events[0].payload)) == std::vector<std::uint32_t>{10, 11});
    CHECK(events[1].time == 7);
    REQUIRE(sim::CompletionGroups::is_group(events[1].payload));
    CHECK(groups.members(sim::CompletionGroups::id_of(events[1].payload)) == std::vector<std::uint32_t>{12, 13, 14});
    CHECK(events[2].time == 9);
    CHECK_FALSE(sim::CompletionGroups::is_group(events[2].payload));
    CHECK(events[2].payload == 15);
    // Closing frees the id: the next group reuses the last id closed, with no members.
    const std::uint32_t second = sim::CompletionGroups::id_of(events[1].payload);
    groups.close(sim::CompletionGroups::id_of(events[0].payload));
    groups.close(second);
    CHECK(groups.open() == second);
    CHECK(groups.members(second).empty());
}

TEST_CASE("completion groups: an empty batch pushes nothing; a lone block is its own event") {
    sim::CompletionGroups groups;
    sim::EventQueue queue;
    sim::CompletionGroups::Batch empty;
    groups.finish(empty, queue);
    CHECK(queue.empty());
    sim::CompletionGroups::Batch one;
    groups.add(one, queue, 3, 40);
    CHECK(queue.empty());  // pushed only when the batch moves on or finishes
    groups.finish(one, queue);
    const std::vector<Popped> events = drain(queue);
    REQUIRE(events.size() == 1);
    CHECK(events[0].time == 40);
    CHECK(events[0].payload == 3);
}

}  // namespace gpusched
