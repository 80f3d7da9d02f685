// EventCore alone: the clock, scheduling through the role interfaces, and the pending dispatch pass.
#include <doctest/doctest.h>

#include "gpusched/sim/engine/event_core.h"

namespace gpusched {

TEST_CASE("event core: events scheduled through EventScheduler come out in (time, phase, sequence) order") {
    sim::EventCore core;
    sim::EventScheduler& events = core;
    const sim::TimeTeller& clock = core;
    CHECK(clock.now() == 0);
    CHECK_FALSE(core.busy());
    // Two operation events at 50, one completion at 50, one release at 20: the release first
    // (earliest), then the completion at 50 (phase 0 before phase 2), then the operations in
    // the order they were scheduled (payloads 7 then 8).
    events.schedule(50, sim::Phase::operation, 7);
    events.schedule(50, sim::Phase::completion, 3);
    events.schedule(50, sim::Phase::operation, 8);
    events.schedule(20, sim::Phase::release, 1);
    CHECK(core.busy());
    std::vector<std::uint32_t> order;
    while (!core.queue().empty()) {
        const sim::Event e = core.queue().pop();
        core.set_now(e.time);
        order.push_back(e.payload());
    }
    CHECK(order == std::vector<std::uint32_t>{1, 3, 7, 8});
    CHECK(clock.now() == 50);
}

TEST_CASE("event core: a pending pass keeps the earliest request and runs before later events only") {
    sim::EventCore core;
    core.set_now(100);
    core.request_pass(300);
    core.request_pass(200);  // earlier: replaces 300
    core.request_pass(250);  // later than the pending 200: ignored
    CHECK(core.pass_pending());
    CHECK(core.pass_at() == 200);
    // An event at 200 comes first (a pass runs after every event of its instant) ...
    core.schedule(200, sim::Phase::operation, 1);
    CHECK_FALSE(core.pass_due());
    CHECK(core.event_at_now() == false);  // now is 100, the event is at 200
    core.set_now(core.queue().pop().time);
    CHECK(core.event_at_now() == false);
    // ... then the pass is due, before an event at 201.
    core.schedule(201, sim::Phase::completion, 2);
    CHECK(core.pass_due());
    core.begin_pass();
    CHECK(core.now() == 200);
    CHECK_FALSE(core.pass_pending());
    CHECK(core.busy());  // the event at 201 remains
    core.set_now(201);
    CHECK(core.event_at_now());
}

}  // namespace gpusched
