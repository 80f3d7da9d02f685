// OperationFrontEnd alone, through fake EventScheduler and TimeTeller roles: stream order, delays, copies.
#include <doctest/doctest.h>

#include <string>
#include <tuple>
#include <vector>

#include "gpusched/sim/engine/operation_front_end.h"
#include "gpusched/support/input_error.h"
#include "support/sim_fixtures.h"

namespace gpusched {

namespace {

constexpr Time kNs = 1000;
constexpr Time kUs = 1'000'000;

/// Records what is scheduled; the time is whatever the test sets.
class FakeEvents final : public sim::EventScheduler, public sim::TimeTeller {
public:
    Time time = 0;
    std::vector<std::tuple<Time, sim::Phase, std::uint32_t>> scheduled;
    void schedule(Time when, sim::Phase phase, std::uint32_t payload) override { scheduled.emplace_back(when, phase, payload); }
    [[nodiscard]] Time now() const override { return time; }
};

class CopyLog final : public sim::SimObserver {
public:
    std::vector<sim::CopyRecord> copies;
    void on_copy(const sim::CopyRecord& c) override { copies.push_back(c); }
};

workloads::Operation kernel_op(std::size_t launch, int stream) {
    workloads::Operation op;
    op.kind = workloads::Operation::Kind::kernel;
    op.launch = launch;
    op.stream = stream;
    return op;
}

workloads::Operation copy_op(workloads::CopyDirection direction, std::uint64_t bytes, int stream) {
    workloads::Operation op;
    op.kind = workloads::Operation::Kind::copy;
    op.copy.direction = direction;
    op.copy.bytes = bytes;
    op.stream = stream;
    return op;
}

}  // namespace

TEST_CASE("front end: a stream's kernel, delay and kernel run in order") {
    // kernel_launch_ns = 500. Op 0 (kernel 0) starts at 0 and arrives at 0.5 us; its run ends at
    // 2 us; op 1 (delay 5 us) then ends at 7 us; op 2 (kernel 1) arrives at 7.5 us.
    hw::GpuSpec gpu = test::small_gpu(2);
    gpu.kernel_launch_ns = 500;
    workloads::Application app = test::app_of({test::launch(1, 32, 1000), test::launch(1, 32, 1000)});
    workloads::Operation delay;
    delay.kind = workloads::Operation::Kind::delay;
    delay.delay = 5 * kUs;
    app.operations = {kernel_op(0, 0), delay, kernel_op(1, 0)};
    FakeEvents events;
    const std::vector<sim::SimObserver*> observers;
    sim::OperationFrontEnd front(gpu, app, events, events, observers);
    CHECK(front.kernel_op(1) == 2);
    front.start();
    REQUIRE(events.scheduled.size() == 1);
    CHECK(events.scheduled[0] == std::make_tuple(500 * kNs, sim::Phase::operation, 0u));
    CHECK(front.ops_in_flight() == 1);
    events.time = 500 * kNs;
    CHECK(front.on_event(0) == std::optional<std::size_t>{0});  // kernel 0 is in the execution-engine queue
    front.start_ready();
    CHECK(events.scheduled.size() == 1);
    events.time = 2 * kUs;
    front.kernel_finished(0);
    REQUIRE(events.scheduled.size() == 2);
    CHECK(events.scheduled[1] == std::make_tuple(7 * kUs, sim::Phase::operation, 1u));
    CHECK(front.last_end() == 2 * kUs);
    events.time = 7 * kUs;
    CHECK_FALSE(front.on_event(1).has_value());  // the delay ended
    front.start_ready();
    REQUIRE(events.scheduled.size() == 3);
    CHECK(events.scheduled[2] == std::make_tuple(7500 * kNs, sim::Phase::operation, 2u));
    CHECK(front.ops_in_flight() == 1);
    CHECK(front.last_end() == 7 * kUs);
}

TEST_CASE("front end: copies queue on their direction's copy engine") {
    // 10 GB/s = 100 ps per byte, 1 us latency: 10 000 bytes take 1 + 1 = 2 us. Two engines:
    // host-to-device copies on streams 0 and 1 share engine 0 (0..2 us, then 2..4 us); the
    // device-to-host copy on stream 2 has engine 1 to itself (0..2 us).
    hw::GpuSpec gpu = test::small_gpu(2);
    gpu.host_link_gbps = 10;
    gpu.host_link_latency_ns = 1000;
    gpu.copy_engines = 2;
    workloads::Application app = test::app_of({test::launch(1, 32, 1000)});
    app.operations = {copy_op(workloads::CopyDirection::host_to_device, 10'000, 0),
                      copy_op(workloads::CopyDirection::host_to_device, 10'000, 1),
                      copy_op(workloads::CopyDirection::device_to_host, 10'000, 2), kernel_op(0, 3)};
    FakeEvents events;
    CopyLog log;
    const std::vector<sim::SimObserver*> observers = {&log};
    sim::OperationFrontEnd front(gpu, app, events, events, observers);
    front.start();
    REQUIRE(log.copies.size() == 3);
    CHECK(log.copies[0].engine == 0);
    CHECK(log.copies[0].start == 0);
    CHECK(log.copies[0].end == 2 * kUs);
    CHECK(log.copies[1].engine == 0);
    CHECK(log.copies[1].ready == 0);
    CHECK(log.copies[1].start == 2 * kUs);
    CHECK(log.copies[1].end == 4 * kUs);
    CHECK(log.copies[2].engine == 1);
    CHECK(log.copies[2].end == 2 * kUs);
    CHECK(front.ops_in_flight() == 4);
    // Copies on a GPU spec without a host link bandwidth are an InputError.
    gpu.host_link_gbps.reset();
    CHECK_THROWS_AS(sim::OperationFrontEnd(gpu, app, events, events, observers), InputError);
}

TEST_CASE("front end: host calls issue operation i at i x host_launch_interval_ns") {
    // 2 us per call: kernel 1 (op 1) is ready at 0 on its own stream but issued at 2 us.
    hw::GpuSpec gpu = test::small_gpu(2);
    gpu.host_launch_interval_ns = 2000;
    workloads::Application app = test::app_of({test::launch(1, 32, 1000, 0), test::launch(1, 32, 1000, 1)});
    app.host_issue = workloads::HostIssue::calls;
    FakeEvents events;
    const std::vector<sim::SimObserver*> observers;
    sim::OperationFrontEnd front(gpu, app, events, events, observers);
    front.start();
    REQUIRE(events.scheduled.size() == 2);
    CHECK(events.scheduled[0] == std::make_tuple(Time{0}, sim::Phase::operation, 0u));       // op 0 issued at 0, no launch overhead
    CHECK(events.scheduled[1] == std::make_tuple(2 * kUs, sim::Phase::operation, 1u));       // op 1 waits for its call
    events.time = 2 * kUs;
    CHECK_FALSE(front.on_event(1).has_value());  // issued now: it starts (kernel: arrives after 0 ns)
    REQUIRE(events.scheduled.size() == 3);
    CHECK(events.scheduled[2] == std::make_tuple(2 * kUs, sim::Phase::operation, 1u));
    CHECK(front.on_event(1) == std::optional<std::size_t>{1});
    // Without the interval in the spec, host calls are an InputError.
    CHECK_THROWS_AS(sim::OperationFrontEnd(test::small_gpu(2), app, events, events, observers), InputError);
}

}  // namespace gpusched
