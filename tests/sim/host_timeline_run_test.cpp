// Host timeline in whole runs: launches wait for their calls, syncs hold the host, a full launch queue blocks the next launch.
#include <doctest/doctest.h>

#include "gpusched/sim/output/summary_collector.h"
#include "gpusched/support/input_error.h"
#include "gpusched/workloads/host_speed.h"
#include "support/sim_fixtures.h"

namespace gpusched {

namespace {

constexpr Time kNs = 1000;
constexpr Time kUs = 1'000'000;

/// `n` one-block 10 us kernels (the last on `last_stream`) and one host thread of `calls`.
workloads::Application app_with(std::size_t n, int last_stream, std::vector<workloads::HostCall> calls) {
    std::vector<workloads::KernelLaunch> launches;
    for (std::size_t i = 0; i < n; ++i) launches.push_back(test::launch(1, 32, 10 * kUs));
    launches.back().stream = last_stream;
    workloads::Application app = test::app_of(launches);
    app.operations = app.issue_order();
    app.host.push_back({"main", std::move(calls), ""});
    return app;
}

}  // namespace

TEST_CASE("host timeline run: a launch waits for its call, a sync holds the host until its stream is done") {
    // A launch submits its work as its call returns. Launch 0's call runs 1..2 us -> ready 2.5, runs 2.5..12.5.
    // Launch 1's call 2..3 us; its stream is free at 12.5 -> ready 13.0, ends 23.0. The sync starts at 3 us and
    // ends at 23 + 1 = 24 us; launch 2's call at 24 + 2 = 26..27 us -> ready 27.5, ends 37.5.
    const auto app = app_with(3, 0, {test::host_launch(0, 1 * kUs, 1 * kUs), test::host_launch(1, 0, 1 * kUs), test::host_sync(0, 0, 1 * kUs), test::host_launch(2, 2 * kUs, 1 * kUs)});
    const auto r = test::run(test::host_timeline_gpu(), app, "most-room");
    CHECK(r.ready == std::vector<Time>{2500 * kNs, 13000 * kNs, 27500 * kNs});
    CHECK(r.makespan == 37500 * kNs);
}

TEST_CASE("host timeline run: a full launch queue blocks the thread until the oldest pending launch starts") {
    // Depth 1. Launch 0 submits at 1 us and starts at once (its entry freed): kernel 0 runs 1.5..11.5. Launch
    // 1 submits at 2 us, waits for kernel 0 (its stream) and holds the entry; launch 2's call (2..3 us) finds
    // the queue full at 3 us: it submits when kernel 1 starts, at kernel 0's end 11.5 us, and returns then;
    // launch 3 (stream 1) runs 11.5..12.5 -> ready 13.0. Without a depth: launch 3 submits at 4 us -> ready 4.5.
    const auto calls = std::vector<workloads::HostCall>{test::host_launch(0, 0, 1 * kUs), test::host_launch(1, 0, 1 * kUs), test::host_launch(2, 0, 1 * kUs),
                                                        test::host_launch(3, 0, 1 * kUs)};
    hw::GpuSpec gpu = test::host_timeline_gpu();
    const auto unbounded = test::run(gpu, app_with(4, 1, calls), "most-room");
    CHECK(unbounded.ready[3] == 4500 * kNs);
    gpu.launch_queue_depth = 1;
    const auto bounded = test::run(gpu, app_with(4, 1, calls), "most-room");
    CHECK(bounded.ready[3] == 13000 * kNs);
    CHECK(bounded.ready[2] == 22500 * kNs);  // kernel 1 runs 12.0..22.0, then + 0.5
    CHECK(bounded.makespan == unbounded.makespan);  // stream 0's order bound the end either way: 32.5 us
    CHECK(bounded.makespan == 32500 * kNs);
}

/// Keeps every host call record.
class CallRecorder final : public sim::SimObserver {
public:
    std::vector<sim::HostCallRecord> calls;
    void on_host_call(const sim::HostCallRecord& call) override { calls.push_back(call); }
};

TEST_CASE("host timeline run: each call's start, end and blocked time reach the observers and the summary's threads") {
    // The first test's calls: launch 0 at 1..2 us, launch 1 at 2..3, the sync starts at 3 us, is blocked
    // until kernel 1 ends at 23 us (20 us) and ends at 24; launch 2 at 26..27 us.
    const auto app = app_with(3, 0, {test::host_launch(0, 1 * kUs, 1 * kUs), test::host_launch(1, 0, 1 * kUs), test::host_sync(0, 0, 1 * kUs), test::host_launch(2, 2 * kUs, 1 * kUs)});
    CallRecorder calls;
    sim::SummaryCollector summary;
    auto p = scheduler::make_policy("most-room");
    const hw::GpuSpec gpu = test::host_timeline_gpu();  // the engine keeps a reference
    sim::Engine engine(gpu, app, *p, "fixed");
    engine.add_observer(calls);
    engine.add_observer(summary);
    engine.run();
    REQUIRE(calls.calls.size() == 4);
    const auto at = [&](std::size_t i) { return std::vector<Time>{calls.calls[i].start, calls.calls[i].end, calls.calls[i].blocked}; };
    CHECK(at(0) == std::vector<Time>{1 * kUs, 2 * kUs, 0});
    CHECK(at(1) == std::vector<Time>{2 * kUs, 3 * kUs, 0});
    CHECK(at(2) == std::vector<Time>{3 * kUs, 24 * kUs, 20 * kUs});
    CHECK(at(3) == std::vector<Time>{26 * kUs, 27 * kUs, 0});
    for (std::size_t i = 0; i < 4; ++i) CHECK(calls.calls[i].call == i);
    const auto& threads = summary.summary().host_threads;
    REQUIRE(threads.size() == 1);
    CHECK(threads[0].name == "main");
    CHECK(threads[0].launches == 3);
    CHECK(threads[0].syncs == 1);
    CHECK(threads[0].cpu == 4 * kUs);  // 1 us per call; the sync's 20 us blocked are not CPU time
    CHECK(threads[0].gaps == 3 * kUs);  // 1 + 0 + 0 + 2 us: cpu + gaps = workloads::host_work
    CHECK(threads[0].cpu + threads[0].gaps == workloads::host_work(app));
    CHECK(threads[0].sync_wait == 20 * kUs);
    CHECK(threads[0].queue_wait == 0);
    CHECK(threads[0].first_start == 1 * kUs);
    CHECK(threads[0].last_end == 27 * kUs);
}

TEST_CASE("host timeline run: a launch blocked on a full queue reports its wait in its record") {
    // The queue test's depth 1: launch 2's call starts at 2 us, would submit at 3 us and is blocked until
    // kernel 1 starts at 11.5 us (8.5 us); it returns as it submits.
    const auto calls_in = std::vector<workloads::HostCall>{test::host_launch(0, 0, 1 * kUs), test::host_launch(1, 0, 1 * kUs), test::host_launch(2, 0, 1 * kUs),
                                                           test::host_launch(3, 0, 1 * kUs)};
    hw::GpuSpec gpu = test::host_timeline_gpu();
    gpu.launch_queue_depth = 1;
    CallRecorder calls;
    static_cast<void>(test::run(gpu, app_with(4, 1, calls_in), "most-room", &calls));
    REQUIRE(calls.calls.size() == 4);
    CHECK(calls.calls[2].start == 2 * kUs);
    CHECK(calls.calls[2].blocked == 8500 * kNs);
    CHECK(calls.calls[2].end == 11500 * kNs);
}

TEST_CASE("host timeline run: a call of the next iteration waits until every thread ended the previous one") {
    // Two iterations of: thread a launches kernel 0 (cpu 1 us) after a 1 us gap; thread b launches kernel 1
    // (stream 1) after 30 us. Without the tie, a's second iteration would start at 3 us; it waits for b's
    // first call to end at 31 us, so it starts then (28 us of iteration wait), and b's second call at 31 + 30.
    std::vector<workloads::KernelLaunch> launches;
    for (int i = 0; i < 4; ++i) launches.push_back(test::launch(1, 32, 10 * kUs, i % 2));
    workloads::Application app = test::app_of(launches);
    app.operations = app.issue_order();
    workloads::HostThread a{"a", {test::host_launch(0, 1 * kUs, 1 * kUs), test::host_launch(2, 1 * kUs, 1 * kUs)}, ""};
    workloads::HostThread b{"b", {test::host_launch(1, 30 * kUs, 1 * kUs), test::host_launch(3, 30 * kUs, 1 * kUs)}, ""};
    a.calls[1].round = 1;
    b.calls[1].round = 1;
    app.host = {a, b};
    CallRecorder calls;
    sim::SummaryCollector summary;
    const hw::GpuSpec gpu = test::host_timeline_gpu();
    auto p = scheduler::make_policy("most-room");
    sim::Engine engine(gpu, app, *p, "fixed");
    engine.add_observer(calls);
    engine.add_observer(summary);
    engine.run();
    REQUIRE(calls.calls.size() == 4);
    for (const auto& c : calls.calls) {
        CAPTURE(c.thread);
        CAPTURE(c.call);
        if (c.thread == 0 && c.call == 1) {
            CHECK(c.start == 3 * kUs);        // its own schedule: 2 us + its 1 us gap
            CHECK(c.iteration_wait == 28 * kUs);
            CHECK(c.end == 32 * kUs);         // released at 31 us, then its 1 us of CPU
        }
        if (c.thread == 1 && c.call == 1) CHECK(c.start == 61 * kUs);  // not held: a ended iteration 0 at 2 us
    }
    CHECK(summary.summary().host_threads[0].iteration_wait == 28 * kUs);
    CHECK(summary.summary().host_threads[0].queue_wait == 0);
}

TEST_CASE("host timeline run: host threads and issue: host-calls are not given together") {
    auto app = app_with(1, 0, {test::host_launch(0, 0, 0)});
    app.host_issue = workloads::HostIssue::calls;
    hw::GpuSpec gpu = test::host_timeline_gpu();
    gpu.host_launch_interval_ns = 1000;
    CHECK_THROWS_WITH_AS(test::run(gpu, app, "most-room"), doctest::Contains("host threads (`host`) and `issue: host-calls`"), InputError);
}

TEST_CASE("host timeline run: a sync that can never end is an error naming the thread and the call") {
    // Thread b launches kernel 1 at once; kernel 1 waits for kernel 0 (its stream), which thread a
    // launches only after its sync on stream 0, which waits for kernel 1: no order of the calls works.
    auto app = app_with(2, 0, {test::host_sync(0, 1 * kUs, 0), test::host_launch(0, 0, 0)});
    app.host[0].calls[0].where = "w.yaml:9";
    app.host.push_back({"b", {test::host_launch(1, 0, 0)}, ""});
    CHECK_THROWS_WITH_AS(test::run(test::host_timeline_gpu(), app, "most-room"),
                         "host thread 'main' never finished its call at w.yaml:9: the sync waits for work that waits, through its "
                         "stream, for a later call of the same thread",
                         InputError);
}

}  // namespace gpusched
