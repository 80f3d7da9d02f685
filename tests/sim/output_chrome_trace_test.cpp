// ChromeTraceWriter: valid JSON, non-overlapping sorted slices per track, exact times, the cap.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <vector>

#include "gpusched/sim/output/chrome_trace.h"

namespace gpusched::sim {
namespace {

/// A run on 4 SMs with 3 slots each: launch 0 (30 blocks, stream 0) and launch 1 (20 blocks,
/// stream 1). Each slot runs blocks back to back with varied durations; block ids are dealt
/// round-robin over the slots. Completions are reported in end-time order, as an engine does.
struct GeneratedRun {
    hw::GpuSpec gpu;
    workloads::Application app;
    RunInfo info;
    std::vector<BlockRecord> blocks;  // in completion order

    GeneratedRun() {
        gpu.name = "gen";
        gpu.full_name = "Generated \"test\" GPU";
        gpu.sm_count = 4;
        gpu.max_blocks_per_sm = 3;
        workloads::KernelLaunch a;
        a.name = "alpha";
        a.grid.x = 30;
        a.stream = 0;
        workloads::KernelLaunch b = a;
        b.name = "beta";
        b.grid.x = 20;
        b.stream = 1;
        app.launches = {a, b};
        info.gpu = &gpu;
        info.app = &app;
        info.policy = "greedy";
        info.execution = "fixed";
        hw::OccupancyResult three_per_sm;
        three_per_sm.blocks_per_sm = 3;
        info.occupancy.push_back(three_per_sm);
        info.occupancy.push_back(three_per_sm);

        std::vector<Time> slot_free(12, 0);
        std::uint64_t seed = 12345;
        for (int i = 0; i < 50; ++i) {
            const int track = i % 12;
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            const Time duration = 1000 + (seed >> 33) % 5000000;  // 1ns .. 5us, picosecond-grained
            BlockRecord r;
            r.launch = i < 30 ? 0 : 1;
            r.block = static_cast<std::uint64_t>(i < 30 ? i : i - 30);
            r.sm = track % 4;
            r.slot = track / 4;
            r.dispatch = slot_free[track];
            r.start = r.dispatch + 700;
            r.end = r.start + duration;
            slot_free[track] = r.end;
            blocks.push_back(r);
        }
        std::stable_sort(blocks.begin(), blocks.end(), [](const auto& x, const auto& y) { return x.end < y.end; });
    }

    void drive(SimObserver& o) const {
        o.on_begin(info);
        o.on_kernel_ready(0, 0);
        o.on_kernel_ready(1, 0);
        std::vector<std::uint64_t> left = {30, 20};
        std::vector<Time> first = {~Time{0}, ~Time{0}};
        for (const auto& b : blocks) first[b.launch] = std::min(first[b.launch], b.start);
        for (const auto& b : blocks) {
            o.on_block_completed(b);
            if (--left[b.launch] == 0) o.on_kernel_completed(b.launch, first[b.launch], b.end);
        }
        o.on_end(blocks.back().end);
    }
};

std::string render(const GeneratedRun& run, std::uint64_t cap = ChromeTraceWriter::kDefaultMaxBlockEvents,
                   bool* truncated = nullptr) {
    std::ostringstream out;
    ChromeTraceWriter w(out, cap, "0.1.0");
    run.drive(w);
    if (truncated) *truncated = w.truncated();
    return out.str();
}

using Track = std::pair<std::int64_t, std::int64_t>;

/// Every "X" slice per (pid, tid), in file order, as (ts, dur) in microseconds.
std::map<Track, std::vector<std::pair<double, double>>> slices(const nlohmann::json& trace) {
    std::map<Track, std::vector<std::pair<double, double>>> by_track;
    for (const auto& e : trace["traceEvents"])
        if (e["ph"] == "X")
            by_track[{e["pid"].get<std::int64_t>(), e["tid"].get<std::int64_t>()}].emplace_back(e["ts"].get<double>(),
                                                                                          e["dur"].get<double>());
    return by_track;
}

}  // namespace

TEST_CASE("chrome trace: valid JSON with one process per SM and named slot tracks") {
    GeneratedRun run;
    const auto trace = nlohmann::json::parse(render(run));
    CHECK(trace["displayTimeUnit"] == "ns");
    REQUIRE(trace["traceEvents"].is_array());
    CHECK(trace["otherData"]["gpu"] == "gen");
    CHECK(trace["otherData"]["gpu_name"] == "Generated \"test\" GPU");
    CHECK(trace["otherData"]["truncated"] == false);
    CHECK(trace["otherData"]["blocks_written"] == 50);
    CHECK(trace["otherData"]["blocks_total"] == 50);

    std::map<std::int64_t, std::string> process_names;
    std::map<Track, std::string> thread_names;
    std::size_t block_slices = 0, kernel_slices = 0;
    for (const auto& e : trace["traceEvents"]) {
        const std::int64_t pid = e["pid"], tid = e["tid"];
        CHECK(pid > 0);
        CHECK(tid > 0);
        if (e["ph"] == "M" && e["name"] == "process_name") {
            CHECK(process_names.count(pid) == 0);
            process_names[pid] = e["args"]["name"];
        }
        if (e["ph"] == "M" && e["name"] == "thread_name") {
            CHECK(thread_names.count({pid, tid}) == 0);
            thread_names[{pid, tid}] = e["args"]["name"];
        }
        if (e["ph"] != "X") continue;
        CHECK_MESSAGE(thread_names.count({pid, tid}) == 1, "a slice on a track named later or never");
        if (e["cat"] == "block") {
            ++block_slices;
            const int sm = static_cast<int>(pid - 1);
            CHECK(process_names[pid] == "SM " + std::to_string(sm));
            const std::string kernel = e["args"]["launch"] == 0 ? "alpha" : "beta";
            CHECK(e["name"] == kernel + " #" + std::to_string(e["args"]["block"].get<std::uint64_t>()));
            CHECK(e["args"].contains("dispatch_ns"));
            CHECK(thread_names[{pid, tid}].rfind("slot ", 0) == 0);
        } else {
            ++kernel_slices;
            CHECK(e["cat"] == "kernel");
            CHECK(process_names[pid] == "Kernels");
        }
    }
    CHECK(block_slices == 50);
    CHECK(kernel_slices == 2);
    CHECK(process_names.size() == 5);       // 4 SMs and "Kernels"
    CHECK(thread_names.size() == 12 + 2);   // 3 slots on each SM, one track per stream
}

TEST_CASE("chrome trace: the slices of every track are sorted and never overlap") {
    GeneratedRun run;
    const auto tracks = slices(nlohmann::json::parse(render(run)));
    CHECK(tracks.size() == 14);
    for (const auto& [track, list] : tracks) {
        const std::int64_t pid = track.first, tid = track.second;
        for (std::size_t i = 1; i < list.size(); ++i) {
            INFO("pid " << pid << " tid " << tid << " slice " << i);
            CHECK(list[i - 1].first <= list[i].first);
            // Times are exact decimals of picoseconds; allow for double rounding only.
            CHECK(list[i - 1].first + list[i - 1].second <= list[i].first + 1e-9);
        }
    }
}

TEST_CASE("chrome trace: times are exact microseconds with six decimals") {
    GeneratedRun run;
    run.blocks = {{0, 7, 2, 1, 1000, 1234567, 3000001}};
    run.app.launches.edit(0).grid.x = 1;
    run.app.launches.truncate(1);
    OccupancyTable first_launch;
    first_launch.push_back(run.info.occupancy[0]);
    run.info.occupancy = first_launch;
    std::ostringstream out;
    ChromeTraceWriter w(out);
    w.on_begin(run.info);
    w.on_kernel_ready(0, 500);
    w.on_block_completed(run.blocks[0]);
    w.on_kernel_completed(0, 1234567, 3000001);
    w.on_end(3000001);
    const std::string text = out.str();
    // SM 2 slot 1 with 3 slots per SM: pid 3, tid 2 * 3 + 1 + 1 = 8.
    const std::string slice =
        "{\"name\":\"alpha #7\",\"cat\":\"block\",\"ph\":\"X\",\"pid\":3,\"tid\":8,"
        "\"ts\":1.234567,\"dur\":1.765434,\"args\":{\"launch\":0,\"block\":7,\"dispatch_ns\":1.000}}";
    CHECK(text.find(slice) != std::string::npos);
    CHECK(text.find("\"ts\":1.234567,\"dur\":1.765434,\"args\":{\"launch\":0,\"blocks\":1,\"ready_ns\":0.500}") !=
          std::string::npos);
    CHECK(nlohmann::json::parse(text)["otherData"]["makespan_ns"].get<double>() == 3000.001);
}

TEST_CASE("chrome trace: the cap stops block slices and leaves a truncation note") {
    GeneratedRun run;
    bool truncated = false;
    const std::string text = render(run, 5, &truncated);
    CHECK(truncated);
    const auto trace = nlohmann::json::parse(text);
    CHECK(trace["otherData"]["truncated"] == true);
    CHECK(trace["otherData"]["blocks_written"] == 5);
    CHECK(trace["otherData"]["blocks_total"] == 50);
    std::size_t blocks = 0, kernels = 0;
    for (const auto& e : trace["traceEvents"]) {
        if (e["ph"] == "X") (e["cat"] == "block" ? blocks : kernels) += 1;
    }
    CHECK(blocks == 5);
    CHECK(kernels == 2);  // kernel spans are never capped
    const auto& last = trace["traceEvents"].back();
    CHECK(last["name"] == "TRACE TRUNCATED: 5 of 50 blocks shown");
    CHECK(last["ph"] == "i");

    bool not_truncated = true;
    render(run, 50, &not_truncated);
    CHECK_FALSE(not_truncated);
    const auto none = nlohmann::json::parse(render(run, 0));
    CHECK(none["otherData"]["blocks_written"] == 0);
    CHECK(none["traceEvents"].back()["name"] == "TRACE TRUNCATED: 0 of 50 blocks shown");
}

TEST_CASE("chrome trace: an empty application is still a valid trace") {
    GeneratedRun run;
    run.app.launches.clear();
    std::ostringstream out;
    ChromeTraceWriter w(out);
    w.on_begin(run.info);
    w.on_end(0);
    const auto trace = nlohmann::json::parse(out.str());
    CHECK(trace["traceEvents"].empty());
    CHECK_FALSE(w.truncated());
}

TEST_CASE("chrome trace: events outside what RunInfo described are rejected") {
    GeneratedRun run;
    std::ostringstream out;
    ChromeTraceWriter w(out);
    w.on_begin(run.info);
    CHECK_THROWS_AS(w.on_block_completed({2, 0, 0, 0, 0, 0, 1}), std::out_of_range);
    CHECK_THROWS_AS(w.on_block_completed({0, 0, 4, 0, 0, 0, 1}), std::out_of_range);
    CHECK_THROWS_AS(w.on_block_completed({0, 0, 0, 3, 0, 0, 1}), std::out_of_range);
    CHECK_THROWS_AS(w.on_block_completed({0, 0, 0, 0, 0, 5, 1}), std::logic_error);
}

TEST_CASE("chrome trace: identical event sequences give byte-identical output") {
    GeneratedRun run;
    CHECK(render(run) == render(run));
    CHECK(render(run, 7) == render(run, 7));
}

}  // namespace gpusched::sim
