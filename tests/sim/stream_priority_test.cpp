// Stream priorities in the dispatcher: every level of the GPU's range in order, the backfill stop, bad priorities.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>

#include "gpusched/support/input_error.h"
#include "support/sim_fixtures.h"

namespace gpusched {

namespace {

constexpr Time us = 1'000'000;

workloads::StreamConfig stream_of(int id, workloads::StreamPriority priority) {
    workloads::StreamConfig s;
    s.id = id;
    s.priority = priority;
    return s;
}

/// First block start and last block end of each launch.
std::map<std::size_t, std::pair<Time, Time>> spans_of(const test::Recorder& r) {
    std::map<std::size_t, std::pair<Time, Time>> spans;
    for (const auto& b : r.blocks) {
        auto [it, added] = spans.try_emplace(b.launch, b.start, b.end);
        it->second.first = std::min(it->second.first, b.start);
        it->second.second = std::max(it->second.second, b.end);
    }
    return spans;
}

/// Issue order: each launch on its stream, launch k after a delay of delays[k] on that stream.
void issue_with_delays(workloads::Application& app, const std::vector<Time>& delays) {
    for (std::size_t k = 0; k < app.launches.size(); ++k) {
        if (delays[k] > 0) {
            workloads::Operation delay;
            delay.kind = workloads::Operation::Kind::delay;
            delay.stream = app.launches[k].stream;
            delay.delay = delays[k];
            app.operations.push_back(delay);
        }
        workloads::Operation op;
        op.stream = app.launches[k].stream;
        op.launch = k;
        app.operations.push_back(op);
    }
}

}  // namespace

TEST_CASE("stream priorities: three CUDA levels and a tie, each level fully before the next") {
    // 2 SMs of 2048 threads (the H100's limits, range 0..-5); every launch 4 blocks x 1024 threads
    // x 10 us = one full wave of both SMs. All ready at t = 0, issued in the order
    // blocker (stream 0, priority 0), L0 (stream 1, 0), L2 (stream 2, -2), L5 (stream 3, -5).
    // Offered by level, greatest first: L5 runs 0..10 us, then L2 10..20, then level 0 in ready
    // order (leftover rule): blocker 20..30, L0 30..40.
    auto app = test::app_of({test::launch(4, 1024, 10 * us, 0), test::launch(4, 1024, 10 * us, 1),
                             test::launch(4, 1024, 10 * us, 2), test::launch(4, 1024, 10 * us, 3)});
    app.streams = {stream_of(1, workloads::StreamPriority::cuda(0)), stream_of(2, workloads::StreamPriority::cuda(-2)),
                   stream_of(3, workloads::StreamPriority::cuda(-5))};
    const auto spans = spans_of(test::run(test::small_gpu(2), app, "most-room"));
    CHECK(spans.at(3) == std::pair<Time, Time>{0, 10 * us});
    CHECK(spans.at(2) == std::pair<Time, Time>{10 * us, 20 * us});
    CHECK(spans.at(0) == std::pair<Time, Time>{20 * us, 30 * us});
    CHECK(spans.at(1) == std::pair<Time, Time>{30 * us, 40 * us});
}

TEST_CASE("stream priorities: six queued levels run strictly by level, each from the previous level's first end") {
    // The H100's `levels` case (validation/data/h100/concurrency/timeline_levels.csv): a blocker
    // fills the GPU, then one full-wave kernel per level is issued, lowest first; they ran strictly
    // by level, each starting ~0.3 us after the previous level's first block ended, in 11 of 15
    // transitions before that level's last block ended. No rule of its own: the backfill stop
    // (a level waits while a greater one is not fully dispatched) and a full GPU give it.
    // 2 SMs x 2 slots of 1024 threads; blocker (stream 0) 4 blocks x 10 us; p0..p5 on streams
    // 1..6 (priorities 0..-5) issued at 1 us, 4 blocks each, block b lasting 10 us + b x 100 ns.
    // 10 us: the blocker ends; p5 (greatest) takes all 4 slots: ends 20.0, 20.1, 20.2, 20.3.
    // p4 is fully offered only after p5 is fully dispatched (10 us), then takes p5's slots as
    // they free: its block b starts 20 + 0.1 b and ends 30 + 0.2 b. So p4 starts at 20.0 us,
    // before p5's last end (20.3 us); p3 starts at p4's first end, 30.0 us, ..., p0 at 60.0 us.
    auto app = test::app_of({test::launch(4, 1024, 10 * us, 0)});
    for (int level = 0; level <= 5; ++level) {
        workloads::KernelLaunch k = test::launch(4, 1024, 0, level + 1);
        k.work = std::make_shared<test::LambdaWork>([](std::uint64_t b) { return 10 * us + static_cast<Time>(b) * 100'000; });
        app.launches.push_back(k);
        app.streams.push_back(stream_of(level + 1, workloads::StreamPriority::cuda(-level)));
    }
    issue_with_delays(app, {0, us, us, us, us, us, us});
    const auto spans = spans_of(test::run(test::small_gpu(2), app, "most-room"));
    CHECK(spans.at(0) == std::pair<Time, Time>{0, 10 * us});
    CHECK(spans.at(6) == std::pair<Time, Time>{10 * us, 20 * us + 300'000});  // p5
    CHECK(spans.at(5) == std::pair<Time, Time>{20 * us, 30 * us + 600'000});  // p4: starts before p5's last end
    for (int level = 3; level >= 0; --level) {
        CAPTURE(level);
        const std::size_t launch = static_cast<std::size_t>(level) + 1;
        CHECK(spans.at(launch).first == (60 - 10 * level) * us);        // p3 30 us, p2 40, p1 50, p0 60
        CHECK(spans.at(launch).first < spans.at(launch + 1).second);       // before the greater level's last end
    }
}

TEST_CASE("stream priorities: `high` is the device's greatest level, above -4, below nothing") {
    // As above with three launches: S4 (stream 1, -4), H (stream 2, high = -5 on the H100), and
    // the blocker (stream 0, 0). H first (0..10 us), S4 (10..20), blocker (20..30).
    auto app = test::app_of({test::launch(4, 1024, 10 * us, 0), test::launch(4, 1024, 10 * us, 1),
                             test::launch(4, 1024, 10 * us, 2)});
    app.streams = {stream_of(1, workloads::StreamPriority::cuda(-4)), stream_of(2, workloads::StreamPriority::high)};
    const auto spans = spans_of(test::run(test::small_gpu(2), app, "most-room"));
    CHECK(spans.at(2).first == 0);
    CHECK(spans.at(1).first == 10 * us);
    CHECK(spans.at(0).first == 20 * us);
}

namespace {

/// One SM (2048 threads). Launch 0 (stream 0, priority 0): 24 blocks of 256 threads, block b
/// runs 10 + (b mod 8) us, so its first wave (blocks 0..7, 8 per SM) frees one 256-thread slot
/// per us from 10 us on. Launch 1 (stream 1, `priority`): 2 blocks of 512 threads x 5 us, issued
/// at 5 us, when the SM is full.
test::Recorder backfill_case(workloads::StreamPriority priority) {
    auto low = test::launch(24, 256, 0, 0);
    low.work = std::make_shared<test::LambdaWork>([](std::uint64_t b) { return (10 + static_cast<Time>(b % 8)) * us; });
    auto app = test::app_of({low, test::launch(2, 512, 5 * us, 1)});
    app.streams = {stream_of(1, priority)};
    issue_with_delays(app, {0, 5 * us});
    return test::run(test::small_gpu(1), app, "most-room");
}

}  // namespace

TEST_CASE("backfill stop: freed room waits for a higher-priority launch whose blocks do not fit yet") {
    // Priority -5. 10 us: block 0 ends, 256 threads free: no 512-thread block fits, and the
    // waiting high launch stops the low one, so the slot stays empty. 11 us: block 1 ends, 512
    // free: high block 0 starts. 12 us: 256 free (block 2). 13 us: block 3 ends: high block 1
    // starts; the high launch is fully dispatched. 14 us: block 4 ends: low block 8 starts, the
    // first low block after the first wave.
    const auto r = backfill_case(workloads::StreamPriority::cuda(-5));
    std::vector<Time> high_starts;
    Time low_refill = ~Time{0};
    for (const auto& b : r.blocks) {
        if (b.launch == 1) high_starts.push_back(b.start);
        if (b.launch == 0 && b.block >= 8) low_refill = std::min(low_refill, b.start);
    }
    std::sort(high_starts.begin(), high_starts.end());
    CHECK(high_starts == std::vector<Time>{11 * us, 13 * us});
    CHECK(low_refill == 14 * us);
}

TEST_CASE("backfill stop: at equal priority the second launch waits until the first is fully dispatched") {
    // Priority 0 (leftover rule, no stop): each freed 256-thread slot takes the next low block.
    // Block b of the second and third waves starts when a slot frees: blocks 8..15 at 10..17 us
    // (ending at 20, 22, ..., 34 us: start + 10 + (b mod 8)), block 16 at 20 us (ends 30), 17 at
    // 22 (33), 18 at 24 (36), 19 at 26 (39), 20 at 28 (42); at 30 us blocks 13 and 16 end: 21
    // and 22 start; 23 at 32 us (block 14's end). Low is fully dispatched at 32 us; 33 us:
    // block 17 ends (256 free); 34 us: block 15 ends (512 free): second block 0 starts there.
    const auto r = backfill_case(workloads::StreamPriority::normal);
    Time second_first = ~Time{0};
    Time low_last_start = 0;
    for (const auto& b : r.blocks) {
        if (b.launch == 1) second_first = std::min(second_first, b.start);
        if (b.launch == 0) low_last_start = std::max(low_last_start, b.start);
    }
    CHECK(low_last_start == 32 * us);
    CHECK(second_first == 34 * us);
}

TEST_CASE("stream priorities: a priority outside the GPU's range is an input error naming the key and the range") {
    auto app = test::app_of({test::launch(1, 32, us, 0), test::launch(1, 32, us, 1)});
    app.streams = {stream_of(1, workloads::StreamPriority::cuda(-6))};
    CHECK_THROWS_WITH_AS(test::run(test::small_gpu(2), app, "most-room"),
                         "stream 1: key 'priority': -6 is not a stream priority of GPU h100 (streams.priority_range: "
                         "0 (least) down to -5 (greatest)); expected normal, high or an integer from 0 down to -5",
                         InputError);
    // A GPU without a stated range and cc 3.5: CUDA's rule gives two levels, 0 and -1.
    hw::GpuSpec kepler = test::small_gpu(2);
    kepler.stream_priority_range.reset();
    kepler.cc_major = 3;
    kepler.cc_minor = 5;
    CHECK(kepler.stream_priorities() == hw::StreamPriorityRange{0, -1, false});
    app.streams = {stream_of(1, workloads::StreamPriority::cuda(-2))};
    CHECK_THROWS_WITH_AS(test::run(kepler, app, "most-room"), doctest::Contains("0 (least) down to -1 (greatest)"), InputError);
    // Below cc 3.5 CUDA has no priorities: one level, 0; `high` is 0 too, so no error.
    kepler.cc_minor = 0;
    CHECK(kepler.stream_priorities() == hw::StreamPriorityRange{0, 0, false});
    app.streams = {stream_of(1, workloads::StreamPriority::high)};
    CHECK_NOTHROW(test::run(kepler, app, "most-room"));
}

}  // namespace gpusched
