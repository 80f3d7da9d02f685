// HostTimeline alone, through fake EventScheduler and TimeTeller roles: runs ahead, sync waits, full launch queues.
#include <doctest/doctest.h>

#include <tuple>
#include <vector>

#include "gpusched/sim/engine/host_timeline.h"
#include "support/sim_fixtures.h"

namespace gpusched {

namespace {

constexpr Time kUs = 1'000'000;

class FakeEvents final : public sim::EventScheduler, public sim::TimeTeller {
public:
    Time time = 0;
    std::vector<std::tuple<Time, std::uint32_t>> scheduled;
    void schedule(Time when, sim::Phase, std::uint32_t payload) override { scheduled.emplace_back(when, payload); }
    [[nodiscard]] Time now() const override { return time; }
};

/// `ops` kernel operations on stream 0 and one host thread with `calls`.
workloads::Application app_of(std::size_t ops, std::vector<workloads::HostCall> calls) {
    workloads::Application app;
    app.operations.resize(ops);
    app.host.push_back({"main", std::move(calls), ""});
    return app;
}

/// Thread 0's next host event, at `time`.
void event_at(Time time, FakeEvents& ev, sim::HostTimeline& host, std::vector<std::size_t>& issued) {
    ev.time = time;
    host.on_event(0, issued);
}

}  // namespace

TEST_CASE("host timeline: the host runs ahead, each call at the previous end plus its gap") {
    // Call 0 starts at gap 10 us and takes 4 us: its work is submitted as it returns, at 14 us; call 1
    // starts at 14 + 1 = 15 us and submits at 15 + 4 = 19 us. Payload = base 2 + thread 0.
    const auto app = app_of(2, {test::host_launch(0, 10 * kUs, 4 * kUs), test::host_launch(1, 1 * kUs, 4 * kUs)});
    FakeEvents ev;
    sim::HostTimeline host(app, 2, std::nullopt, 2, ev, ev);
    CHECK(host.holds(0));
    CHECK(host.holds(1));
    host.start();
    REQUIRE(ev.scheduled.size() == 1);
    CHECK(ev.scheduled[0] == std::tuple<Time, std::uint32_t>{10 * kUs, 2});
    std::vector<std::size_t> issued;
    ev.time = 10 * kUs;
    host.on_event(0, issued);  // the call starts: nothing issued during its CPU time
    CHECK(issued.empty());
    REQUIRE(ev.scheduled.size() == 2);
    CHECK(ev.scheduled[1] == std::tuple<Time, std::uint32_t>{14 * kUs, 2});
    ev.time = 14 * kUs;
    host.on_event(0, issued);
    CHECK(issued == std::vector<std::size_t>{0});
    REQUIRE(ev.scheduled.size() == 3);
    CHECK(std::get<0>(ev.scheduled[2]) == 15 * kUs);
    ev.time = 15 * kUs;
    host.on_event(0, issued);
    ev.time = 19 * kUs;
    host.on_event(0, issued);
    CHECK(issued == std::vector<std::size_t>{0, 1});
    CHECK(ev.scheduled.size() == 4);  // done: nothing more
    CHECK(host.last_call_end() == 19 * kUs);
}

TEST_CASE("host timeline: a stream sync holds the next call until the work it names finished") {
    // launch op 0 at 1 us (cpu 4: submitted at 5 us), sync stream 0 at 5 + 1 = 6 us: op 0 is still running;
    // it finishes at 50 us, so the sync ends at 50 + 2 = 52 us and the last launch starts at 52 + 3 = 55 us.
    const auto app = app_of(2, {test::host_launch(0, 1 * kUs, 4 * kUs), test::host_sync(0, 1 * kUs, 2 * kUs), test::host_launch(1, 3 * kUs, 4 * kUs)});
    FakeEvents ev;
    sim::HostTimeline host(app, 2, std::nullopt, 2, ev, ev);
    host.start();
    std::vector<std::size_t> issued;
    ev.time = 1 * kUs;
    host.on_event(0, issued);
    ev.time = 5 * kUs;
    host.on_event(0, issued);
    CHECK(issued == std::vector<std::size_t>{0});
    CHECK(std::get<0>(ev.scheduled.back()) == 6 * kUs);
    ev.time = 6 * kUs;
    host.on_event(0, issued);
    CHECK(ev.scheduled.size() == 3);  // blocked: nothing scheduled
    ev.time = 50 * kUs;
    host.op_started(0);
    host.op_finished(0);
    REQUIRE(ev.scheduled.size() == 4);
    CHECK(std::get<0>(ev.scheduled.back()) == 55 * kUs);
    CHECK(host.sync_wait() == 44 * kUs);  // blocked from 6 to 50 us
}

TEST_CASE("host timeline: a sync on finished work costs only its cpu; a device sync waits for every stream") {
    // op 0 submitted at 1 + 4 = 5 us, finished at 5.5 us, before the sync starts at 5 + 1 = 6 us: the next
    // call at 6 + 2 + 1 = 9 us.
    auto app = app_of(2, {test::host_launch(0, 1 * kUs, 4 * kUs), test::host_sync(-1, 1 * kUs, 2 * kUs), test::host_launch(1, 1 * kUs, 1 * kUs)});
    app.operations[1].stream = 3;
    FakeEvents ev;
    sim::HostTimeline host(app, 2, std::nullopt, 2, ev, ev);
    host.start();
    std::vector<std::size_t> issued;
    ev.time = 1 * kUs;
    host.on_event(0, issued);
    ev.time = 5 * kUs;
    host.on_event(0, issued);
    ev.time = 5 * kUs + kUs / 2;
    host.op_finished(0);
    ev.time = 6 * kUs;
    host.on_event(0, issued);
    CHECK(std::get<0>(ev.scheduled.back()) == 9 * kUs);
    CHECK(host.sync_wait() == 0);
}

TEST_CASE("host timeline: a full launch queue blocks the next launch until the oldest pending one starts") {
    // depth 1: op 0, submitted at 0 + 1 = 1 us, holds the only entry; the launch of op 1 starts at 1 + 1 = 2 us
    // and would submit at 3 us: it blocks; op 0 starts at 30 us: the call is retried at 30 us and issues op 1.
    const auto app = app_of(2, {test::host_launch(0, 0, 1 * kUs), test::host_launch(1, 1 * kUs, 1 * kUs)});
    FakeEvents ev;
    sim::HostTimeline host(app, 2, 1, 2, ev, ev);
    host.start();
    std::vector<std::size_t> issued;
    host.on_event(0, issued);
    ev.time = 1 * kUs;
    host.on_event(0, issued);
    ev.time = 2 * kUs;
    host.on_event(0, issued);
    ev.time = 3 * kUs;
    host.on_event(0, issued);
    CHECK(issued == std::vector<std::size_t>{0});
    CHECK(ev.scheduled.size() == 4);  // 0, 1, 2 and 3 us: none after the block
    ev.time = 30 * kUs;
    host.op_started(0);
    REQUIRE(ev.scheduled.size() == 5);
    CHECK(ev.scheduled.back() == std::tuple<Time, std::uint32_t>{30 * kUs, 2});
    host.on_event(0, issued);
    CHECK(issued == std::vector<std::size_t>{0, 1});
    CHECK(host.queue_wait() == 27 * kUs);  // blocked from 3 to 30 us
    CHECK(host.last_call_end() == 30 * kUs);
}

TEST_CASE("host timeline: a graph launch takes one queue entry for all its operations") {
    // depth 1: the graph call (cpu 2) issues ops 0 and 1 at 2 us (one entry, held by op 0); the next launch
    // starts at 2 + 1 = 3 us, would submit at 4 us and blocks until op 0 starts (at 5 us), not op 1.
    workloads::HostCall graph = test::host_launch(0, 0, 2 * kUs);
    graph.ops = {0, 1};
    const auto app = app_of(3, {graph, test::host_launch(2, 1 * kUs, 1 * kUs)});
    FakeEvents ev;
    sim::HostTimeline host(app, 3, 1, 3, ev, ev);
    host.start();
    std::vector<std::size_t> issued;
    host.on_event(0, issued);
    ev.time = 2 * kUs;
    host.on_event(0, issued);
    CHECK(issued == std::vector<std::size_t>{0, 1});
    ev.time = 3 * kUs;
    host.on_event(0, issued);
    ev.time = 4 * kUs;
    host.on_event(0, issued);
    CHECK(issued.size() == 2);  // blocked
    CHECK(ev.scheduled.size() == 4);
    ev.time = 5 * kUs;
    host.op_started(1);  // holds no entry: nothing scheduled
    CHECK(ev.scheduled.size() == 4);
    host.op_started(0);
    REQUIRE(ev.scheduled.size() == 5);
    CHECK(std::get<0>(ev.scheduled.back()) == 5 * kUs);
}

TEST_CASE("host timeline: operations no call launches are not held") {
    const auto app = app_of(3, {test::host_launch(1, 0, 1 * kUs)});
    FakeEvents ev;
    sim::HostTimeline host(app, 3, std::nullopt, 3, ev, ev);
    CHECK_FALSE(host.holds(0));
    CHECK(host.holds(1));
    CHECK_FALSE(host.holds(2));
}

TEST_CASE("host timeline: a launch with `submit` issues its work inside the call, which then runs to its end") {
    // Call 0 starts at 2 us with cpu 40 us and submit 5 us: op 0 is issued at 2 + 5 = 7 us, the call goes on
    // for the other 35 us and ends at 42 us; call 1 (gap 1, cpu 4, no submit) starts at 43 us and issues at 47 us.
    auto first = test::host_launch(0, 2 * kUs, 40 * kUs);
    first.submit = 5 * kUs;
    const auto app = app_of(2, {first, test::host_launch(1, 1 * kUs, 4 * kUs)});
    FakeEvents ev;
    sim::HostTimeline host(app, 2, std::nullopt, 2, ev, ev);
    host.start();
    std::vector<std::size_t> issued;
    event_at(2 * kUs, ev, host, issued);
    REQUIRE(ev.scheduled.size() == 2);
    CHECK(std::get<0>(ev.scheduled[1]) == 7 * kUs);
    event_at(7 * kUs, ev, host, issued);
    CHECK(issued == std::vector<std::size_t>{0});
    REQUIRE(ev.scheduled.size() == 3);
    CHECK(std::get<0>(ev.scheduled[2]) == 42 * kUs);  // the rest of the call: 40 - 5 us
    CHECK(host.last_call_end() == 0);                 // call 0 has not ended
    event_at(42 * kUs, ev, host, issued);
    CHECK(issued == std::vector<std::size_t>{0});
    CHECK(host.last_call_end() == 42 * kUs);
    REQUIRE(ev.scheduled.size() == 4);
    CHECK(std::get<0>(ev.scheduled[3]) == 43 * kUs);
    event_at(43 * kUs, ev, host, issued);
    event_at(47 * kUs, ev, host, issued);
    CHECK(issued == std::vector<std::size_t>{0, 1});
    CHECK(host.last_call_end() == 47 * kUs);
}

TEST_CASE("host timeline: a launch with `submit` on a full queue ends its call the rest of its cpu after the block") {
    // depth 1: op 0 (cpu 1 us) holds the only entry from 1 us; call 1 starts at 2 us, cpu 10 us, submit 3 us:
    // at 5 us the queue is full; op 0 starts at 30 us: op 1 is issued at 30 us and the call ends at
    // 30 + (10 - 3) = 37 us.
    auto second = test::host_launch(1, 1 * kUs, 10 * kUs);
    second.submit = 3 * kUs;
    const auto app = app_of(2, {test::host_launch(0, 0, 1 * kUs), second});
    FakeEvents ev;
    sim::HostTimeline host(app, 2, 1, 2, ev, ev);
    host.start();
    std::vector<std::size_t> issued;
    event_at(0, ev, host, issued);
    event_at(1 * kUs, ev, host, issued);
    event_at(2 * kUs, ev, host, issued);
    CHECK(std::get<0>(ev.scheduled.back()) == 5 * kUs);
    event_at(5 * kUs, ev, host, issued);
    CHECK(issued == std::vector<std::size_t>{0});
    ev.time = 30 * kUs;
    host.op_started(0);
    host.on_event(0, issued);
    CHECK(issued == std::vector<std::size_t>{0, 1});
    CHECK(std::get<0>(ev.scheduled.back()) == 37 * kUs);
    CHECK(host.queue_wait() == 25 * kUs);  // blocked from 5 to 30 us
    event_at(37 * kUs, ev, host, issued);
    CHECK(host.last_call_end() == 37 * kUs);
}

}  // namespace gpusched
