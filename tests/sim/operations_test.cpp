// Applications as DAGs: stream order, events, `after`, host delays and copies on copy engines.
#include <doctest/doctest.h>

#include <sstream>

#include <nlohmann/json.hpp>

#include "gpusched/support/input_error.h"
#include "gpusched/sim/output/chrome_trace.h"
#include "gpusched/sim/output/summary_collector.h"
#include "gpusched/workloads/operation_graph.h"
#include "gpusched/workloads/workload_file.h"
#include "support/sim_fixtures.h"

namespace gpusched {

namespace {

using workloads::Operation;

constexpr Time kUs = 1'000'000;

Operation kernel_op(std::size_t launch, int stream) {
    Operation op;
    op.launch = launch;
    op.stream = stream;
    return op;
}

Operation event_op(Operation::Kind kind, const std::string& event, int stream) {
    Operation op;
    op.kind = kind;
    op.set_event(event);
    op.stream = stream;
    return op;
}

Operation copy_op(workloads::CopyDirection direction, std::uint64_t bytes, int stream, bool pinned = true) {
    Operation op;
    op.kind = Operation::Kind::copy;
    op.copy = {direction, pinned, bytes};
    op.stream = stream;
    return op;
}

/// 4 SMs, no overheads; a 10 GB/s host link (100 ps per byte), 1 us per copy, 2 copy engines.
hw::GpuSpec copy_gpu(int engines = 2) {
    hw::GpuSpec g = test::small_gpu(4);
    g.host_link_gbps = 10;
    g.host_link_pageable_gbps = 5;
    g.host_link_latency_ns = 1000;
    g.copy_engines = engines;
    return g;
}

struct CopyLog final : sim::SimObserver {
    std::vector<sim::CopyRecord> copies;
    void on_copy(const sim::CopyRecord& c) override { copies.push_back(c); }
};

struct Run {
    test::Recorder recorder;
    CopyLog copies;
    Time makespan = 0;
};

Run run(const hw::GpuSpec& gpu, const workloads::Application& app, bool memoise = true) {
    auto policy = scheduler::make_policy("most-room");
    sim::Engine engine(gpu, app, *policy, "fixed");
    engine.set_memoise(memoise);
    Run r;
    engine.add_observer(r.recorder);
    engine.add_observer(r.copies);
    r.makespan = engine.run().makespan;
    return r;
}

std::string error_of(const hw::GpuSpec& gpu, const workloads::Application& app) {
    try {
        run(gpu, app);
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("an event wait makes a kernel on another stream start after the recorded kernel ends") {
    // Stream 0: A (4 blocks x 50 us on 4 SMs: 0..50 us), record e. Stream 1: wait e, B.
    // Without the wait B would be ready at 0 (it is a different stream); with it, at 50 us.
    workloads::Application app = test::app_of({test::launch(4, 128, 50 * kUs, 0), test::launch(4, 128, 10 * kUs, 1)});
    app.operations = {kernel_op(0, 0), event_op(Operation::Kind::record, "e", 0),
                      event_op(Operation::Kind::wait, "e", 1), kernel_op(1, 1)};
    const Run r = run(test::small_gpu(4), app);
    CHECK(r.recorder.ready[0] == 0);
    CHECK(r.recorder.ready[1] == 50 * kUs);
    CHECK(r.makespan == 60 * kUs);
    app.operations.clear();  // the plain launch order: both ready at once, 4 + 4 blocks share 4 SMs
    CHECK(run(test::small_gpu(4), app).recorder.ready[1] == 0);
}

TEST_CASE("a wait depends on the latest record issued before it, and `after` adds any edge") {
    // e is recorded twice on stream 0: after A (50 us) and after C (A then C: 50 + 30 = 80 us).
    // The wait issued between the two records depends on the first one only: B ready at 50 us.
    workloads::Application app = test::app_of({test::launch(4, 128, 50 * kUs, 0), test::launch(4, 128, 10 * kUs, 1),
                                               test::launch(4, 128, 30 * kUs, 0)});
    app.operations = {kernel_op(0, 0), event_op(Operation::Kind::record, "e", 0),
                      event_op(Operation::Kind::wait, "e", 1), kernel_op(1, 1), kernel_op(2, 0),
                      event_op(Operation::Kind::record, "e", 0)};
    CHECK(run(test::small_gpu(4), app).recorder.ready[1] == 50 * kUs);
    // `after` C instead: B waits for C's end at 80 us (B's blocks wait for SMs: B ends at 90 us).
    app.operations[2] = event_op(Operation::Kind::delay, "", 1);
    app.operations[2].delay = 0;
    app.operations[4].set_id("C");
    app.operations[3].set_after({"C"});
    const Run r = run(test::small_gpu(4), app);
    CHECK(r.recorder.ready[1] == 80 * kUs);
    CHECK(r.makespan == 90 * kUs);
}

TEST_CASE("a host delay holds its stream") {
    workloads::Application app = test::app_of({test::launch(4, 128, 5 * kUs, 0)});
    Operation delay;
    delay.kind = Operation::Kind::delay;
    delay.delay = 7 * kUs;
    app.operations = {delay, kernel_op(0, 0)};
    const Run r = run(test::small_gpu(4), app);
    CHECK(r.recorder.ready[0] == 7 * kUs);
    CHECK(r.makespan == 12 * kUs);
}

TEST_CASE("copies: latency + bytes / bandwidth, one engine per direction, overlapping kernels") {
    using workloads::CopyDirection;
    // 10 GB/s = 100 ps per byte: 1,000,000 bytes take 100 us, + 1 us latency = 101 us.
    // Stream 0: H2D 1 MB (0..101 us), then kernel K0 (101..151 us).
    // Stream 1: D2H 500 kB on the other engine (0..51 us), H2D 200 kB: the H2D engine is busy
    // until 101 us, so it runs 101..122 us (20 us + 1 us).
    // Stream 2: kernel K1 (0..50 us) overlaps both copies.
    workloads::Application app = test::app_of({test::launch(4, 128, 50 * kUs, 0), test::launch(4, 128, 50 * kUs, 2)});
    app.operations = {copy_op(CopyDirection::host_to_device, 1'000'000, 0), kernel_op(0, 0),
                      copy_op(CopyDirection::device_to_host, 500'000, 1),
                      copy_op(CopyDirection::host_to_device, 200'000, 1), kernel_op(1, 2)};
    const Run r = run(copy_gpu(), app);
    REQUIRE(r.copies.copies.size() == 3);
    const auto& c = r.copies.copies;
    CHECK(c[0].start == 0);
    CHECK(c[0].end == 101 * kUs);
    CHECK(c[1].direction == CopyDirection::device_to_host);
    CHECK(c[1].end == 51 * kUs);
    CHECK(c[1].engine != c[0].engine);
    CHECK(c[2].ready == 51 * kUs);
    CHECK(c[2].start == 101 * kUs);
    CHECK(c[2].end == 122 * kUs);
    CHECK(r.recorder.ready[0] == 101 * kUs);
    CHECK(r.recorder.ready[1] == 0);
    CHECK(r.makespan == 151 * kUs);

    // One copy engine: both directions share it. D2H waits for the first H2D: 101..152 us,
    // then the second H2D 152..173 us.
    const Run one = run(copy_gpu(1), app);
    CHECK(one.copies.copies[1].start == 101 * kUs);
    CHECK(one.copies.copies[2].end == 173 * kUs);
    CHECK(one.makespan == 173 * kUs);

    // Pageable memory at 5 GB/s: 1 MB takes 200 us + 1 us.
    app.operations[0].copy.pinned = false;
    CHECK(run(copy_gpu(), app).copies.copies[0].end == 201 * kUs);
}

TEST_CASE("copies appear in the summary and on the trace's copy-engine tracks") {
    workloads::Application app = test::app_of({test::launch(4, 128, 50 * kUs, 0)});
    app.operations = {copy_op(workloads::CopyDirection::host_to_device, 1'000'000, 0), kernel_op(0, 0),
                      copy_op(workloads::CopyDirection::device_to_host, 1'000'000, 0, false)};
    const hw::GpuSpec gpu = copy_gpu();
    auto policy = scheduler::make_policy("most-room");
    sim::Engine engine(gpu, app, *policy, "fixed");
    std::ostringstream trace_text;
    sim::ChromeTraceWriter trace(trace_text);
    sim::SummaryCollector summary;
    engine.add_observer(trace);
    engine.add_observer(summary);
    engine.run();
    // H2D 0..101 us, kernel 101..151 us, pageable D2H (5 GB/s) 151..352 us.
    const sim::RunSummary& s = summary.summary();
    REQUIRE(s.copy_count() == 2);
    const sim::CopySummary d2h = s.copy(1);
    CHECK(d2h.direction == workloads::CopyDirection::device_to_host);
    CHECK(std::string(sim::copy_direction_name(d2h.direction)) == "d2h");
    CHECK(!d2h.pinned);
    CHECK(d2h.start == 151 * kUs);
    CHECK(d2h.end == 352 * kUs);
    CHECK(s.copy_shapes.size() == 2);  // the H2D and the D2H differ
    CHECK(summary.summary().makespan == 352 * kUs);
    const auto json = nlohmann::json::parse(trace_text.str());
    int slices = 0;
    for (const auto& e : json["traceEvents"])
        if (e.value("cat", "") == "copy") {
            ++slices;
            CHECK(e["pid"] == gpu.sm_count + 2);
            CHECK(e["tid"] == (e["name"].get<std::string>().rfind("H2D", 0) == 0 ? 0 : 1));
        }
    CHECK(slices == 2);
}

TEST_CASE("memoised repeats keep their place in the DAG") {
    // A, copy, A again (identical, on an idle GPU: memoised), then B on another stream after it.
    workloads::Application app = test::app_of({test::launch(9, 128, 20 * kUs, 0), test::launch(9, 128, 20 * kUs, 0),
                                               test::launch(4, 128, 5 * kUs, 1)});
    app.operations = {kernel_op(0, 0), copy_op(workloads::CopyDirection::device_to_host, 100'000, 0), kernel_op(1, 0),
                      event_op(Operation::Kind::record, "done", 0), event_op(Operation::Kind::wait, "done", 1),
                      kernel_op(2, 1)};
    const Run memo = run(copy_gpu(), app, true);
    const Run full = run(copy_gpu(), app, false);
    // 9 blocks on 4 SMs of 32 slots: one wave of 20 us; copy 10 + 1 us; again 20 us; B 5 us.
    CHECK(full.makespan == (20 + 11 + 20 + 5) * kUs);
    CHECK(memo.makespan == full.makespan);
    CHECK(memo.recorder.ready == full.recorder.ready);
}

TEST_CASE("bad DAGs and copies the GPU cannot carry are input errors naming the operation") {
    workloads::Application app = test::app_of({test::launch(4, 128, kUs, 0), test::launch(4, 128, kUs, 1)});
    app.operations = {kernel_op(0, 0), event_op(Operation::Kind::wait, "never", 1), kernel_op(1, 1)};
    CHECK(error_of(test::small_gpu(4), app).find("waits for event 'never'") != std::string::npos);

    app.operations = {kernel_op(0, 0), kernel_op(1, 1)};
    app.operations[1].set_after({"nobody"});
    CHECK(error_of(test::small_gpu(4), app).find("'after' names 'nobody'") != std::string::npos);

    // 0 waits for 1 and 1 for 0 (different streams, so only `after` links them): a cycle.
    app.operations[0].set_id("a");
    app.operations[1].set_id("b");
    app.operations[0].set_after({"b"});
    app.operations[1].set_after({"a"});
    const std::string cycle = error_of(test::small_gpu(4), app);
    CHECK(cycle.find("cycle") != std::string::npos);
    CHECK(cycle.find("'a'") != std::string::npos);

    app.operations[0].set_after({});
    app.operations[1].set_after({});
    app.operations[1].set_id("a");
    CHECK(error_of(test::small_gpu(4), app).find("id 'a' is already used") != std::string::npos);

    app.operations = {kernel_op(0, 0)};
    CHECK(error_of(test::small_gpu(4), app).find("launch 1 (k) is not issued") != std::string::npos);

    app.operations = {kernel_op(0, 0), kernel_op(1, 1), copy_op(workloads::CopyDirection::host_to_device, 10, 0)};
    hw::GpuSpec no_link = test::small_gpu(4);
    no_link.host_link_gbps.reset();
    CHECK(error_of(no_link, app).find("host_link.bandwidth_gbps or host_link.copy_engines") != std::string::npos);
    CHECK(error_of(copy_gpu(0), app).find("no copy engine") != std::string::npos);
    hw::GpuSpec no_pageable = copy_gpu();
    no_pageable.host_link_pageable_gbps.reset();
    app.operations[2].copy.pinned = false;
    CHECK(error_of(no_pageable, app).find("host_link.pageable_bandwidth_gbps") != std::string::npos);
}

TEST_CASE("workload files: copy, delay, record, wait, id and after items") {
    const std::string yaml = R"(
launches:
  - copy: h2d
    bytes: 1000000
    stream: 1
  - record: uploaded
    stream: 1
  - wait: uploaded
  - kernel: synthetic
    blocks: 4
    threads: 128
    duration: 50us
    id: compute
  - delay: 5us
    stream: 2
  - copy: d2h
    bytes: 500000
    memory: pageable
    stream: 2
    after: compute
)";
    const workloads::Application app = workloads::parse_workload(yaml, "w.yaml");
    REQUIRE(app.operations.size() == 6);
    CHECK(app.operations[0].kind == Operation::Kind::copy);
    CHECK(app.operations[0].copy.bytes == 1'000'000);
    CHECK(app.operations[3].kind == Operation::Kind::kernel);
    CHECK(app.operations[3].id() == "compute");
    CHECK(app.operations[4].delay == 5 * kUs);
    CHECK(!app.operations[5].copy.pinned);
    // Upload 0..101 us, kernel 101..151 us, then the pageable D2H: 100 us + 1 us = 252 us.
    const Run r = run(copy_gpu(), app);
    CHECK(r.recorder.ready[0] == 101 * kUs);
    CHECK(r.makespan == 252 * kUs);

    const auto error = [](const std::string& text) {
        try {
            workloads::parse_workload(text, "w.yaml");
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    CHECK(error("launches:\n  - copy: sideways\n    bytes: 1\n").find("w.yaml:2") != std::string::npos);
    CHECK(error("launches:\n  - copy: h2d\n    bytes: 0\n").find("bytes") != std::string::npos);
    CHECK(error("launches:\n  - delay: soon\n").find("delay") != std::string::npos);
    CHECK(error("launches:\n  - record: e\n").find("at least one kernel launch") != std::string::npos);
    CHECK(error("launches:\n  - wait: e\n    colour: red\n").find("colour") != std::string::npos);
    const std::string repeated = "launches:\n  - kernel: synthetic\n    blocks: 2\n    threads: 32\n"
                                 "    duration: 1us\n    repeat: 2\n    id: x\n";
    CHECK(error(repeated).find("stands for 2 launches") != std::string::npos);
}

}  // namespace gpusched
