// Slot durations: each block's dispatch inferred from in-order dispatch and refills, against hand-worked timelines.
#include <doctest/doctest.h>

#include <memory>

#include "gpusched/support/input_error.h"
#include "experiments/user_timelines/slot_durations.h"
#include "gpusched/workloads/synthetic_work.h"

using namespace gpusched;

namespace {

constexpr Time ns(long long v) { return v * 1000; }

workloads::Application one_launch(std::uint32_t blocks) {
    workloads::Application app;
    workloads::KernelLaunch k;
    k.name = "k";
    k.grid = {blocks, 1, 1};
    k.block = {256, 1, 1};
    k.work = std::make_shared<workloads::SyntheticWork>(workloads::SyntheticDurations{workloads::SyntheticDurations::Kind::constant, {ns(1)}, 1});
    app.launches = workloads::LaunchList({k});
    return app;
}

}  // namespace

TEST_CASE("slot durations: first wave from the launch's first stamp, refills after the earliest end on their SM") {
    // Two slots per SM, refill delay 100 ns. SM 0 runs blocks 0-3, SM 1 block 4.
    //   block 0: stamps 0 .. 1000          first wave: dispatch 0               -> 1000
    //   block 1: stamps 500 .. 2000        first wave: dispatch 0 (stamp late)  -> 2000
    //   block 2: stamps 1300 .. 3000       refill of block 0's slot: 1000 + 100 -> 3000 - 1100 = 1900
    //   block 3: stamps 2050 .. 2500       refill of block 1's slot: 2000 + 100 = 2100 is after its
    //                                      stamp 2050, so the stamp stays     -> 450
    //   block 4: stamps 10 .. 600 on SM 1  first wave on its own SM: dispatch 0 -> 600
    validation::MeasuredTimeline t;
    t.path = "hand.csv";
    t.blocks = {{0, 0, 0, ns(0), ns(1000)},    {0, 1, 0, ns(500), ns(2000)}, {0, 2, 0, ns(1300), ns(3000)},
                {0, 3, 0, ns(2050), ns(2500)}, {0, 4, 1, ns(10), ns(600)}};
    validation::SlotInference found;
    const auto app = validation::with_slot_durations(t, one_launch(5), 2, ns(100), &found);
    const auto& work = *app.launches[0].work;
    CHECK(work.duration(0) == ns(1000));
    CHECK(work.duration(1) == ns(2000));
    CHECK(work.duration(2) == ns(1900));
    CHECK(work.duration(3) == ns(450));
    CHECK(work.duration(4) == ns(600));
    CHECK(found.refills == 2);
    CHECK(found.stamp_before_slot == 1);
    CHECK(found.longest_wait == ns(500));  // block 1: stamped 500 ns after the launch began
    CHECK(found.late_starts == 0);         // none more than 1 us after its dispatch
}

TEST_CASE("slot durations: each launch starts from its own first stamp; launches must match the replay") {
    // Launch 0 (blocks 0,1 on SM 0, one slot): block 1 refills at 400 + 50 -> 900 - 450 = 450.
    // Launch 1 begins at its first stamp 1000: its block 0 (stamp 2500, a late first stamp) -> 3000 - 1000.
    validation::MeasuredTimeline t;
    t.path = "two.csv";
    t.blocks = {{0, 0, 0, ns(0), ns(400)}, {0, 1, 0, ns(460), ns(900)}, {1, 0, 0, ns(2500), ns(3000)},
                {1, 1, 1, ns(1000), ns(1200)}};
    workloads::Application app = one_launch(2);
    std::vector<workloads::KernelLaunch> two(app.launches.begin(), app.launches.end());
    two.push_back(two.front());
    app.launches = workloads::LaunchList(std::move(two));
    validation::SlotInference found;
    const auto slots = validation::with_slot_durations(t, app, 1, ns(50), &found);
    CHECK(slots.launches[0].work->duration(1) == ns(450));
    CHECK(slots.launches[1].work->duration(0) == ns(2000));
    CHECK(slots.launches[1].work->duration(1) == ns(200));
    CHECK(found.late_starts == 1);
    CHECK(found.longest_wait == ns(1500));

    CHECK_THROWS_AS(validation::with_slot_durations(t, one_launch(2), 1, 0), InputError);  // 2 launches, 1 replayed
    CHECK(validation::parse_block_durations("stamps", "--durations") == validation::BlockDurations::stamps);
    CHECK_THROWS_WITH_AS(validation::parse_block_durations("dispatch", "--durations"),
                         "--durations: expected 'auto', 'slot' or 'stamps', got 'dispatch'", InputError);
}
