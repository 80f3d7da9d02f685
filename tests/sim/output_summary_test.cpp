// SummaryCollector, write_summary_text and write_summary_json driven by a hand-written event sequence.
#include <doctest/doctest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/sim/output/summary_collector.h"

namespace gpusched::sim {
namespace {

constexpr Time us = 1000000;

workloads::KernelLaunch launch(const std::string& name, std::uint32_t blocks, std::uint32_t threads, int stream) {
    workloads::KernelLaunch l;
    l.name = name;
    l.grid.x = blocks;
    l.block.x = threads;
    l.stream = stream;
    return l;
}

/// On the H100 preset: "synthetic" (265 blocks of 1024 threads, 2 per SM) on stream 0 runs a
/// first wave of 264 blocks for 50us on SMs 0..131 (slots 0 and 1), then block 264 on SM 0
/// for 50us more; "tail" (10 blocks of 256 threads, 8 per SM) on stream 1 waits for room and
/// runs on SMs 1..10 from 50us to 50.25us.
struct H100Run {
    hw::GpuSpec gpu = hw::resolve_gpu("h100");
    workloads::Application app;
    RunInfo info;

    H100Run() {
        app.description = "synthetic:blocks=265,threads=1024,duration=50us + tail:blocks=10,threads=256,duration=250ns";
        app.launches = {launch("synthetic", 265, 1024, 0), launch("tail", 10, 256, 1)};
        info.gpu = &gpu;
        info.app = &app;
        info.policy = "round-robin";
        info.execution = "fixed";
        hw::OccupancyResult occupancy;
        occupancy.blocks_per_sm = 2;
        info.occupancy.push_back(occupancy);
        occupancy.blocks_per_sm = 8;
        info.occupancy.push_back(occupancy);
    }

    void drive(SimObserver& o) const {
        std::vector<BlockRecord> blocks;
        for (int i = 0; i < 264; ++i) blocks.push_back({0, std::uint64_t(i), i % 132, i / 132, 0, 0, 50 * us});
        for (int i = 0; i < 10; ++i)
            blocks.push_back({1, std::uint64_t(i), i + 1, 0, 50 * us, 50 * us, 50 * us + 250000});
        blocks.push_back({0, 264, 0, 0, 50 * us, 50 * us, 100 * us});
        std::stable_sort(blocks.begin(), blocks.end(), [](const auto& a, const auto& b) { return a.end < b.end; });
        o.on_begin(info);
        o.on_kernel_ready(0, 0);
        o.on_kernel_ready(1, 0);
        for (const auto& b : blocks) o.on_block_dispatched(b);
        for (const auto& b : blocks) {
            o.on_block_completed(b);
            if (b.launch == 1 && b.block == 9) o.on_kernel_completed(1, 50 * us, 50 * us + 250000);
        }
        o.on_kernel_completed(0, 0, 100 * us);
        o.on_end(100 * us);
    }
};

const char* const kExpectedText =
    "gpusched summary\n"
    "  gpu        h100 (NVIDIA H100 SXM5 80GB), cc 9.0, 132 SMs\n"
    "  policy     round-robin\n"
    "  execution  fixed\n"
    "  workload   synthetic:blocks=265,threads=1024,duration=50us + tail:blocks=10,threads=256,duration=250ns\n"
    "  issue      queued\n"
    "\n"
    "launch  kernel     stream  blocks  threads  blocks/SM  waves  ready_us  start_us   end_us  binds\n"
    "     0  synthetic       0     265     1024          2      2     0.000     0.000  100.000  duration\n"
    "     1  tail            1      10      256          8      1     0.000    50.000   50.250  launch\n"
    "\n"
    "  makespan       100.000 us\n"
    "  blocks         275 total\n"
    "  blocks per SM  min 2 / mean 2.083 / max 3\n";

}  // namespace

TEST_CASE("summary: per-launch and per-SM totals of a hand-written H100 run") {
    H100Run run;
    SummaryCollector c;
    run.drive(c);
    const RunSummary& s = c.summary();
    CHECK(s.gpu == "h100");
    CHECK(s.gpu_name == "NVIDIA H100 SXM5 80GB");
    CHECK(s.sm_count == 132);
    CHECK(s.policy == "round-robin");
    CHECK(s.execution == "fixed");
    CHECK(s.makespan == 100 * us);
    CHECK(s.total_blocks == 275);
    REQUIRE(s.kernel_count() == 2);
    // synthetic: 2 blocks/SM x 132 SMs = 264 blocks per wave; ceil(265 / 264) = 2 waves.
    CHECK(s.kernel(0).waves == 2);
    // tail: 8 x 132 = 1056 per wave; ceil(10 / 1056) = 1 wave.
    CHECK(s.kernel(1).waves == 1);
    CHECK(s.kernel(0).blocks_per_sm == 2);
    CHECK(s.kernel(0).threads_per_block == 1024);
    CHECK(s.kernel(1).stream == 1);
    CHECK(s.kernel(1).ready == Time{0});
    CHECK(s.kernel(1).start == 50 * us);
    CHECK(s.kernel(1).end == 50 * us + 250000);
    CHECK(s.kernel(0).end == 100 * us);
    REQUIRE(s.per_sm_blocks.size() == 132);
    CHECK(s.per_sm_blocks[0] == 3);   // two synthetic blocks, then block 264
    CHECK(s.per_sm_blocks[1] == 3);   // two synthetic blocks and one tail block
    CHECK(s.per_sm_blocks[11] == 2);
    CHECK(s.per_sm_busy[0] == 150 * us);
    CHECK(s.per_sm_busy[1] == 100 * us + 250000);
    CHECK(s.per_sm_busy[131] == 100 * us);
}

TEST_CASE("summary: waves arithmetic at the wave boundaries") {
    H100Run run;
    run.app.launches = {launch("exact", 264, 1024, 0), launch("one-more", 265, 1024, 0), launch("one", 1, 32, 0),
                        launch("no-occupancy", 5, 32, 0)};
    hw::OccupancyResult two_per_sm;
    two_per_sm.blocks_per_sm = 2;
    run.info.occupancy = {};
    for (int i = 0; i < 3; ++i) run.info.occupancy.push_back(two_per_sm);
    SummaryCollector c;
    c.on_begin(run.info);
    const RunSummary& s = c.summary();
    REQUIRE(s.kernel_count() == 4);
    CHECK(s.kernel(0).waves == 1);  // 264 / (2 x 132) = 1 exactly
    CHECK(s.kernel(1).waves == 2);  // one block past a full wave starts a second
    CHECK(s.kernel(2).waves == 1);
    CHECK(s.kernel(3).blocks_per_sm == 0);  // the engine gave no occupancy for it
    CHECK(s.kernel(3).waves == 0);
}

TEST_CASE("summary: rows are compact; a name and a shape are kept once however many launches use them") {
    // KernelTimes and CopyTimes: three times 3 x 8 + two 4-byte indices (shape; operation, shape) = 32 bytes.
    CHECK(sizeof(KernelTimes) <= 32);
    CHECK(sizeof(CopyTimes) <= 32);
    H100Run run;
    run.app.launches = {launch("a", 1, 32, 0), launch("b", 1, 32, 0), launch("a", 1, 32, 0), launch("a", 1, 32, 0)};
    hw::OccupancyResult two_per_sm;
    two_per_sm.blocks_per_sm = 2;
    run.info.occupancy = {};
    for (int i = 0; i < 4; ++i) run.info.occupancy.push_back(two_per_sm);
    SummaryCollector c;
    c.on_begin(run.info);
    const RunSummary& s = c.summary();
    CHECK(s.kernel_names == std::vector<std::string>{"a", "b"});  // distinct, in order of first use
    REQUIRE(s.kernel_count() == 4);
    CHECK(s.kernel_name(s.kernel(0)) == "a");
    CHECK(s.kernel_name(s.kernel(1)) == "b");
    CHECK(s.kernel_name(s.kernel(2)) == "a");
    CHECK(s.kernel(3).launch == 3);
    // Shapes: a (launch 0; launches 2 and 3 find it among the recent ones) and b.
    CHECK(s.kernel_shapes.size() == 2);
    CHECK(s.kernel_times[3].shape == s.kernel_times[0].shape);
    CHECK(!s.kernel(3).ready);  // never reached: the run has not begun
    CHECK(std::string(copy_direction_name(workloads::CopyDirection::host_to_device)) == "h2d");
    CHECK(std::string(copy_direction_name(workloads::CopyDirection::device_to_host)) == "d2h");
}

TEST_CASE("summary: the text table matches the documented sample") {
    H100Run run;
    SummaryCollector c;
    run.drive(c);
    std::ostringstream out;
    write_summary_text(out, c.summary());
    CHECK(out.str() == kExpectedText);
}

TEST_CASE("summary: JSON parses and has the documented keys and values") {
    H100Run run;
    SummaryCollector c;
    run.drive(c);
    std::ostringstream out;
    write_summary_json(out, c.summary());
    const std::string text = out.str();
    REQUIRE(!text.empty());
    CHECK(text.back() == '\n');
    CHECK(std::count(text.begin(), text.end(), '\n') == 1);
    const auto j = nlohmann::json::parse(text);
    for (const char* key : {"gpu", "gpu_name", "sm_count", "policy", "execution", "makespan_ns", "total_blocks",
                            "kernels", "per_sm_blocks", "per_sm_busy_ns"})
        CHECK_MESSAGE(j.contains(key), key);
    CHECK(j["gpu"] == "h100");
    CHECK(j["sm_count"] == 132);
    CHECK(j["makespan_ns"].get<double>() == 100000.0);
    CHECK(j["total_blocks"] == 275);
    REQUIRE(j["kernels"].size() == 2);
    const auto& tail = j["kernels"][1];
    for (const char* key : {"launch", "name", "stream", "blocks", "threads_per_block", "blocks_per_sm", "waves",
                            "ready_ns", "start_ns", "end_ns"})
        CHECK_MESSAGE(tail.contains(key), key);
    CHECK(tail["launch"] == 1);
    CHECK(tail["name"] == "tail");
    CHECK(tail["waves"] == 1);
    CHECK(tail["start_ns"].get<double>() == 50000.0);
    CHECK(tail["end_ns"].get<double>() == 50250.0);
    CHECK(j["kernels"][0]["waves"] == 2);
    REQUIRE(j["per_sm_blocks"].size() == 132);
    CHECK(j["per_sm_blocks"][0] == 3);
    CHECK(j["per_sm_busy_ns"][1].get<double>() == 100250.0);
    // Keys come in a fixed order.
    CHECK(text.rfind("{\"gpu\":\"h100\",\"gpu_name\":", 0) == 0);
}

TEST_CASE("summary: sub-nanosecond times are exact in JSON and rounded in text") {
    hw::GpuSpec gpu;
    gpu.name = "tiny";
    gpu.full_name = "Tiny GPU";
    gpu.sm_count = 1;
    workloads::Application app;
    app.launches = {launch("k", 1, 32, 0)};
    RunInfo info;
    info.gpu = &gpu;
    info.app = &app;
    hw::OccupancyResult one_per_sm;
    one_per_sm.blocks_per_sm = 1;
    info.occupancy.push_back(one_per_sm);
    SummaryCollector c;
    c.on_begin(info);
    c.on_kernel_ready(0, 1);
    c.on_block_completed({0, 0, 0, 0, 1, 1234567, 2345678});
    c.on_kernel_completed(0, 1234567, 2345678);
    c.on_end(2345678);
    std::ostringstream json;
    write_summary_json(json, c.summary());
    const auto j = nlohmann::json::parse(json.str());
    CHECK(j["kernels"][0]["start_ns"].get<double>() == 1234.567);
    CHECK(j["makespan_ns"].get<double>() == 2345.678);
    CHECK(j["kernels"][0]["ready_ns"].get<double>() == 0.001);
    std::ostringstream text;
    write_summary_text(text, c.summary());
    CHECK(text.str().find("  makespan       2.346 us\n") != std::string::npos);
    CHECK(text.str().find("1.235") != std::string::npos);  // start 1.234567us rounds up
}

TEST_CASE("summary: a launch the run never reached shows as null and '-'") {
    H100Run run;
    SummaryCollector c;
    c.on_begin(run.info);
    c.on_kernel_ready(0, 0);
    c.on_end(0);
    std::ostringstream json;
    write_summary_json(json, c.summary());
    const auto j = nlohmann::json::parse(json.str());
    CHECK(j["kernels"][0]["ready_ns"].get<double>() == 0.0);
    CHECK(j["kernels"][0]["start_ns"].is_null());
    CHECK(j["kernels"][1]["ready_ns"].is_null());
    std::ostringstream text;
    write_summary_text(text, c.summary());
    CHECK(text.str().find("  tail            1      10      256          8      1         -         -       -  -\n") !=
          std::string::npos);
}

TEST_CASE("summary: events outside what RunInfo described are rejected") {
    H100Run run;
    SummaryCollector c;
    c.on_begin(run.info);
    CHECK_THROWS_AS(c.on_kernel_ready(2, 0), std::out_of_range);
    CHECK_THROWS_AS(c.on_block_completed({0, 0, 132, 0, 0, 0, 1}), std::out_of_range);
    CHECK_THROWS_AS(c.on_block_completed({0, 0, -1, 0, 0, 0, 1}), std::out_of_range);
    CHECK_THROWS_AS(c.on_block_completed({0, 0, 0, 0, 0, 5, 1}), std::logic_error);
}

TEST_CASE("summary: identical event sequences give byte-identical text and JSON") {
    const auto render = [] {
        H100Run run;
        SummaryCollector c;
        run.drive(c);
        std::ostringstream out;
        write_summary_text(out, c.summary());
        write_summary_json(out, c.summary());
        return out.str();
    };
    CHECK(render() == render());
}

}  // namespace gpusched::sim
