// Memoiser alone: recording a launch's run and repeating an identical one shifted in time.
#include <doctest/doctest.h>

#include "gpusched/sim/engine/memoiser.h"
#include "support/sim_fixtures.h"

namespace gpusched {

TEST_CASE("memoiser: a completed recording repeats for an identical launch only") {
    // Launches 0 and 1 are identical (one work model); launch 2 differs in its grid.
    const workloads::KernelLaunch k = test::launch(4, 256, 1000);
    workloads::KernelLaunch other = k;
    other.grid.x = 8;
    const workloads::Application app = test::app_of({k, k, other});
    sim::Memoiser memo(app, 2);
    CHECK(memo.enabled());
    CHECK_FALSE(memo.can_repeat(1));  // nothing recorded yet
    // Launch 0 ready at 100 ps; two blocks on SM 1 of 30 ps each, one block of launch 2 (not counted).
    memo.start_recording(0, 100);
    memo.count_block(0, 1, 30, true);
    memo.count_block(0, 1, 30, true);
    memo.count_block(2, 0, 30, true);
    memo.count_units(0, 3);  // a completion group of 3 (no per-SM totals)
    // It ends at 500 with its first block started at 150: duration 400, first start offset 50.
    memo.launch_completed(0, 500, 150);
    CHECK(memo.can_repeat(1));
    CHECK_FALSE(memo.can_repeat(2));
    // Launch 1 ready at 1000: first start 1050, end 1400, totals as recorded.
    const sim::Memoiser::Repeat repeat = memo.repeat(1, 1000);
    CHECK(repeat.first_start == 1050);
    CHECK(repeat.end == 1400);
    CHECK(repeat.totals.launch == 1);
    CHECK(repeat.totals.same_as == 0);
    CHECK(repeat.totals.units == 5);
    CHECK(repeat.totals.per_sm_units == std::vector<std::uint64_t>{0, 2});
    CHECK(repeat.totals.per_sm_busy == std::vector<Time>{0, 60});
    CHECK(memo.last_end() == 1400);
}

TEST_CASE("memoiser: a recording disturbed by another launch does not complete") {
    const workloads::KernelLaunch k = test::launch(4, 256, 1000);
    const workloads::Application app = test::app_of({k, k});
    sim::Memoiser memo(app, 1);
    memo.start_recording(0, 0);
    memo.stop_recording();             // launch 1 became ready while 0 ran
    memo.count_block(0, 0, 10, true);  // not recorded
    memo.launch_completed(0, 100, 0);
    CHECK_FALSE(memo.can_repeat(1));
    memo.set_enabled(false);
    CHECK_FALSE(memo.enabled());
}

TEST_CASE("memoiser: a recording in progress or disturbed stands for nothing; the next undisturbed one is kept") {
    // Launch 0 completes its recording (duration 100); launch 1 differs; launch 2 is identical to 1.
    const workloads::KernelLaunch k = test::launch(4, 256, 1000);
    workloads::KernelLaunch other = test::launch(8, 256, 1000);
    const workloads::Application app = test::app_of({k, other, other});
    sim::Memoiser memo(app, 1);
    memo.start_recording(0, 0);
    memo.launch_completed(0, 100, 10);
    memo.start_recording(1, 200);
    CHECK_FALSE(memo.can_repeat(2));  // launch 1's run is not known yet: launch 0's duration must not stand for it
    memo.stop_recording();
    memo.launch_completed(1, 900, 210);
    CHECK_FALSE(memo.can_repeat(2));  // disturbed: never repeated
    memo.start_recording(1, 1000);
    memo.launch_completed(1, 1700, 1010);
    REQUIRE(memo.can_repeat(2));
    CHECK(memo.repeat(2, 2000).end == 2700);  // launch 1's own duration, 700
}

TEST_CASE("memoiser: every undisturbed recording is kept, so a launch repeats one recorded launches ago") {
    // A B A B: launch 2 repeats launch 0 and launch 3 repeats launch 1, though another launch ran between.
    const workloads::KernelLaunch a = test::launch(4, 256, 1000);
    const workloads::KernelLaunch b = test::launch(8, 256, 1000);
    const workloads::Application app = test::app_of({a, b, a, b});
    sim::Memoiser memo(app, 1);
    memo.start_recording(0, 0);
    memo.launch_completed(0, 100, 10);
    CHECK_FALSE(memo.can_repeat(1));
    memo.start_recording(1, 200);
    memo.launch_completed(1, 500, 220);
    REQUIRE(memo.can_repeat(2));
    const sim::Memoiser::Repeat again_a = memo.repeat(2, 1000);
    CHECK(again_a.totals.same_as == 0);
    CHECK(again_a.end == 1100);  // launch 0's duration, 100
    REQUIRE(memo.can_repeat(3));
    const sim::Memoiser::Repeat again_b = memo.repeat(3, 2000);
    CHECK(again_b.totals.same_as == 1);
    CHECK(again_b.first_start == 2020);
    CHECK(again_b.end == 2300);  // launch 1's duration, 300
}

TEST_CASE("memoiser: at most kMaxRecords recordings are kept") {
    // kMaxRecords + 1 distinct launches (each its own work), then each again: all but the last repeat.
    std::vector<workloads::KernelLaunch> launches;
    for (std::size_t i = 0; i <= sim::Memoiser::kMaxRecords; ++i) launches.push_back(test::launch(1, 32, 1000));
    const std::size_t distinct = launches.size();
    for (std::size_t i = 0; i < distinct; ++i) launches.push_back(launches[i]);
    const workloads::Application app = test::app_of(launches);
    sim::Memoiser memo(app, 1);
    for (std::size_t i = 0; i < distinct; ++i) {
        memo.start_recording(i, 0);
        memo.launch_completed(i, 10, 1);
    }
    for (std::size_t i = 0; i + 1 < distinct; ++i) CHECK(memo.can_repeat(distinct + i));
    CHECK_FALSE(memo.can_repeat(2 * distinct - 1));  // its recording came after the limit
}

}  // namespace gpusched
