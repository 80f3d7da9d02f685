// WaveReplay alone: what it records, and how many waves it lets the engine skip.
#include <doctest/doctest.h>

#include "gpusched/sim/engine/wave_replay.h"
#include "gpusched/support/checked_time.h"

namespace gpusched {

namespace {

constexpr Time kUs = 1'000'000;

/// A recorded wave of launch 3: 48 units placed at 100 us, each running 10 us, all ending at 110 us.
sim::WaveReplay recorded() {
    sim::WaveReplay w;
    w.begin_wave(3, false, 6);
    w.record(100 * kUs, 110 * kUs, 10 * kUs, 48);
    return w;
}

}  // namespace

TEST_CASE("wave replay unit: full waves, at least one unit left, all before the next event") {
    const sim::WaveReplay w = recorded();
    CHECK(w.period() == 10 * kUs);
    CHECK(w.units() == 48);
    // 1000 units left, nothing queued: (1000 - 1) / 48 = 20 full waves, 40 units left for the passes after.
    CHECK(w.waves_to_skip(3, 110 * kUs, 1000, kTimeLimit) == 20);
    // 960 = 20 waves exactly: 19 skipped, so the last wave is dispatched and ends the launch.
    CHECK(w.waves_to_skip(3, 110 * kUs, 960, kTimeLimit) == 19);
    // An event at 160 us: waves ending at 120, 130, 140, 150 us come before it; the one ending at 160 would
    // tie with it (the event was queued first), so it is not skipped.
    CHECK(w.waves_to_skip(3, 110 * kUs, 1000, 160 * kUs) == 4);
    CHECK(w.waves_to_skip(3, 110 * kUs, 1000, 160 * kUs + 1) == 5);
}

TEST_CASE("wave replay unit: nothing to skip for another launch, another instant, one wave left, or when off") {
    sim::WaveReplay w = recorded();
    CHECK(w.waves_to_skip(2, 110 * kUs, 1000, kTimeLimit) == 0);      // another launch
    CHECK(w.waves_to_skip(3, 111 * kUs, 1000, kTimeLimit) == 0);      // not at the wave's end
    CHECK(w.waves_to_skip(3, 110 * kUs, 48, kTimeLimit) == 0);        // only the last wave is left
    CHECK(w.waves_to_skip(3, 110 * kUs, 1000, 110 * kUs) == 0);       // an event at this instant
    CHECK(w.waves_to_skip(3, 110 * kUs, 1000, 115 * kUs) == 0);       // before the next wave's end
    w.set_enabled(false);
    CHECK(w.waves_to_skip(3, 110 * kUs, 1000, kTimeLimit) == 0);
    w.set_enabled(true);
    w.forget();
    CHECK(w.waves_to_skip(3, 110 * kUs, 1000, kTimeLimit) == 0);
    sim::WaveReplay empty;
    empty.begin_wave(3, false, 6);
    empty.record(100 * kUs, 110 * kUs, 10 * kUs, 0);  // a pass that placed nothing records nothing
    CHECK(empty.waves_to_skip(3, 110 * kUs, 1000, kTimeLimit) == 0);
}

TEST_CASE("wave replay unit: per-SM counts while counting, and the skipped total") {
    sim::WaveReplay w;
    w.begin_wave(0, true, 4);
    CHECK(w.counting());
    for (const int sm : {0, 1, 1, 3, 1}) w.count(sm);
    w.record(0, 5 * kUs, 5 * kUs, 5);
    CHECK_FALSE(w.counting());
    CHECK(w.per_sm_units() == std::vector<std::uint64_t>{1, 3, 0, 1});
    w.skipped(40);
    w.skipped(2);
    CHECK(w.skipped_units() == 42);
    // Near the end of the time range: no wave may end at or past 2^63 ps.
    sim::WaveReplay late;
    late.begin_wave(0, false, 4);
    late.record(kTimeLimit - 30 * kUs, kTimeLimit - 20 * kUs, 10 * kUs, 4);
    CHECK(late.waves_to_skip(0, kTimeLimit - 20 * kUs, 1000, kTimeLimit) == 1);
}

}  // namespace gpusched
