// build_application: issue order, dense streams, cross-stream waits, host syncs and host gaps of the two-stream trace.
#include <doctest/doctest.h>

#include "gpusched/importers/imported_application.h"
#include "gpusched/importers/kineto_reader.h"
#include "gpusched/support/input_error.h"
#include "gpusched/support/key_error.h"
#include "importers/importer_test_files.h"

using gpusched::InputError;
using gpusched::importers::AppItem;
using gpusched::importers::build_application;
using gpusched::importers::ImportOptions;
using gpusched::importers::read_kineto_trace;
using gpusched::test::importer_data;
using gpusched::test::temp_file;

namespace {

/// The items in a compact form: "K0" kernel on stream 0, "C0" copy, "M1" memset/device copy,
/// "D1=15us" delay, "R0:name" record, "W1:name" wait.
std::vector<std::string> items(const gpusched::importers::ImportedApplication& app) {
    std::vector<std::string> out;
    for (const AppItem& i : app.items) {
        const std::string s = std::to_string(i.stream);
        switch (i.kind) {
            case AppItem::Kind::kernel: out.push_back("K" + s); break;
            case AppItem::Kind::copy: out.push_back("C" + s); break;
            case AppItem::Kind::device_op: out.push_back("M" + s); break;
            case AppItem::Kind::delay: out.push_back("D" + s + "=" + std::to_string(i.gap / 1'000'000) + "." + std::to_string(i.gap % 1'000'000 / 100'000) + "us"); break;
            case AppItem::Kind::record: out.push_back("R" + s + ":" + i.event); break;
            case AppItem::Kind::wait: out.push_back("W" + s + ":" + i.event); break;
        }
    }
    return out;
}

}  // namespace

TEST_CASE("all steps of the two-stream trace, --frozen-gaps: host order, waits, syncs and gaps") {
    const auto trace = read_kineto_trace(importer_data("two_streams.json"));
    ImportOptions frozen;
    frozen.frozen_gaps = true;
    const auto app = build_application(trace, frozen);
    // Streams by first appearance in host order: 7 (the HtoD copy) -> 0, 13 (the memset) -> 1.
    CHECK(app.stream_handles == std::vector<std::int64_t>{7, 13});
    // Origin: the first issue, cudaMemcpyAsync at 105 us (5 us after the first ts of the file).
    CHECK(app.origin == 5'000'000);
    // Step 1: copy (issued 105), gemm (115, stream 0 busy until 130.5: no gap), the memset on the new
    // stream 1 issued 15 us after the origin (a 15 us delay), the fill kernel, cudaEventRecord (130)
    // and the cuda_sync Stream Wait Event (132: stream 0 waits for stream 1's record), reduce_rows,
    // the DtoH copy, then cudaStreamSynchronize(7): a record on stream 0, returning at 195.5 us.
    // Step 2: gemm issued at 310, 114.5 us after the sync returned; the fill kernel on stream 1
    // waits for that record and is issued 116.5 us after it; cudaDeviceSynchronize records both
    // streams (returns at 366); reduce_rows waits for stream 1 and is issued 34 us later.
    CHECK(items(app) == std::vector<std::string>{
                            "C0", "K0", "D1=15.0us", "M1", "K1", "R1:ev14", "W0:ev14", "K0", "C0", "R0:hostsync-s0",
                            "D0=114.5us", "K0", "W1:hostsync-s0", "D1=116.5us", "K1", "R0:hostsync-s0", "R1:hostsync-s1",
                            "W0:hostsync-s1", "D0=34.0us", "K0"});
    CHECK(app.kernels == 6);
    CHECK(app.copies == 2);
    CHECK(app.device_ops == 1);
    CHECK(app.delays == 4);
    CHECK(app.cross_stream_waits == 1);
    CHECK(app.host_syncs == 2);
    CHECK(app.steps_text == "all");
    CHECK(app.notes.empty());
}

TEST_CASE("--steps 2 keeps the kernels whose launch call lies inside ProfilerStep#2's span") {
    const auto trace = read_kineto_trace(importer_data("two_streams.json"));
    ImportOptions options;
    options.frozen_gaps = true;
    options.steps = {false, 2, 2};
    const auto app = build_application(trace, options);
    // Origin: the gemm's launch at 310 us; the fill kernel is issued 2 us later on a new stream.
    CHECK(items(app) == std::vector<std::string>{"K0", "D1=2.0us", "K1", "R0:hostsync-s0", "R1:hostsync-s1", "W0:hostsync-s1",
                                                 "D0=34.0us", "K0"});
    CHECK(app.steps_text == "2-2 of ProfilerStep#1..#2");
    options.min_delay = 5'000'000;  // gaps under 5 us are not delays
    CHECK(items(build_application(trace, options))[1] == "K1");
}

TEST_CASE("bad selections and traces name the flag's key or the events") {
    const auto trace = read_kineto_trace(importer_data("two_streams.json"));
    ImportOptions options;
    options.steps = {false, 2, 3};
    CHECK_THROWS_WITH_AS(build_application(trace, options), doctest::Contains("no ProfilerStep#3 (the trace has ProfilerStep#1..#2)"),
                         gpusched::KeyError);
    options = {};
    options.device = 1;
    CHECK_THROWS_WITH_AS(build_application(trace, options), doctest::Contains("no GPU work on that device"), gpusched::KeyError);
    const std::string kernel = R"({"ph": "X", "cat": "kernel", "name": "k", "ts": TS, "dur": 1, "args": {"stream": 7, "correlation": C, "grid": [1, 1, 1], "block": [32, 1, 1]}})";
    const auto make = [&](const std::string& ts, const std::string& c) {
        std::string k = kernel;
        k.replace(k.find("TS"), 2, ts);
        k.replace(k.find('C', k.find("correlation")), 1, c);
        return k;
    };
    const auto launch = [](const std::string& ts, const std::string& c) {
        return R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "ts": )" + ts + R"(, "dur": 1, "args": {"correlation": )" + c + "}}";
    };
    // Launched 1 then 2 on stream 7, but the second starts on the GPU first: out of order.
    const std::string out_of_order = "{\"traceEvents\": [" + launch("1", "1") + "," + launch("2", "2") + "," + make("20", "1") + "," +
                                     make("10", "2") + "]}";
    const auto swapped = read_kineto_trace(temp_file("swapped.json", out_of_order));
    CHECK_THROWS_WITH_AS(build_application(swapped, ImportOptions{}),
                         doctest::Contains("swapped.json: traceEvents[3] ('k') starts on the GPU before traceEvents[2], which its host "
                                           "issued earlier on the same stream 7: events out of order"),
                         InputError);
    // A CUDA graph: one cudaGraphLaunch (correlation 1) ran two kernels, written in the file in
    // the opposite order of their GPU starts. Same issue time: GPU start order, no error.
    const std::string graph = "{\"traceEvents\": [" + launch("1", "1") + "," + make("20", "1") + "," + make("10", "1") + "]}";
    const auto graph_app = build_application(read_kineto_trace(temp_file("graph.json", graph)), ImportOptions{});
    REQUIRE(graph_app.items.size() == 2);
    CHECK(graph_app.items[0].op == 1);  // ops[1] (traceEvents[2]) started at 10 us
    CHECK(graph_app.items[1].op == 0);
    const std::string memset_only = R"J({"traceEvents": [{"ph": "X", "cat": "gpu_memset", "name": "Memset (Device)", "ts": 1, "dur": 1, "args": {"stream": 7}}]})J";
    CHECK_THROWS_WITH_AS(build_application(read_kineto_trace(temp_file("memset.json", memset_only)), ImportOptions{}),
                         doctest::Contains("memset.json: no kernels on device 0"), InputError);
    CHECK_THROWS_WITH_AS(build_application(read_kineto_trace(temp_file("nothing.json", "{\"traceEvents\": []}")), ImportOptions{}),
                         doctest::Contains("nothing.json: no kernel, memcpy or memset events"), InputError);
}

namespace {

/// A thread's calls in a compact form: "L0+2 1.5/4" launch of items 0 and 2 after a 1.5 us gap
/// taking 4 us; "S0 0/0.5" sync of stream 0; "Sd" the device. Times in us, as the shortest decimal.
std::vector<std::string> calls(const gpusched::workloads::HostThread& t) {
    const auto us = [](gpusched::Time ps) {
        std::string s = std::to_string(ps / 1'000'000);
        if (ps % 1'000'000 != 0) {
            std::string f = std::to_string(ps % 1'000'000);
            f.insert(0, 6 - f.size(), '0');
            while (f.back() == '0') f.pop_back();
            s += "." + f;
        }
        return s;
    };
    std::vector<std::string> out;
    for (const auto& c : t.calls) {
        std::string s;
        if (c.kind == gpusched::workloads::HostCall::Kind::launch) {
            s = "L";
            for (std::size_t i = 0; i < c.ops.size(); ++i) s += (i == 0 ? "" : "+") + std::to_string(c.ops[i]);
        } else {
            s = c.stream < 0 ? "Sd" : "S" + std::to_string(c.stream);
        }
        out.push_back(s + " " + us(c.gap) + "/" + us(c.cpu));
    }
    return out;
}

}  // namespace

TEST_CASE("the host timeline of the two-stream trace: each call with its gap and CPU time") {
    const auto trace = read_kineto_trace(importer_data("two_streams.json"));
    const auto app = build_application(trace, ImportOptions{});
    // No delays and no host-sync records: items are the operations and the cuda_sync stream wait.
    CHECK(items(app) == std::vector<std::string>{"C0", "K0", "M1", "K1", "R1:ev14", "W0:ev14", "K0", "C0", "K0", "K1", "K0"});
    CHECK(app.delays == 0);
    REQUIRE(app.host.size() == 1);
    CHECK(app.host[0].name == "4242");
    // Thread 4242 from the origin (105 us): cudaMemcpyAsync 105+8.5; cudaLaunchKernel 115+4 (gap
    // 115-113.5 = 1.5); cudaMemsetAsync 120+3 (gap 1); launch 125+3.5 (gap 2); launch 140+3 (gap
    // 143-... : 140-128.5 = 11.5; the event record and stream wait calls are inside the gaps);
    // cudaMemcpyAsync 150+2 (gap 7); cudaStreamSynchronize 152..195.5 waits for stream 0, whose
    // DtoH copy ends at 195: cpu 195.5-195 = 0.5. Step 2: launch 310+4 (gap 310-195.5 = 114.5);
    // launch 312+3 overlaps it by 2 us: it starts at 314, gap 0, cpu 315-314 = 1;
    // cudaDeviceSynchronize 320..366 (gap 5) waits for the gemm ending at 315+50.25 = 365.25: cpu
    // 0.75; launch 400+3 (gap 34).
    CHECK(calls(app.host[0]) == std::vector<std::string>{"L0 0/8.5", "L1 1.5/4", "L2 1/3", "L3 2/3.5", "L6 11.5/3", "L7 7/2",
                                                         "S0 0/0.5", "L8 114.5/4", "L9 0/1", "Sd 5/0.75", "L10 34/3"});
    CHECK(app.host_syncs == 2);
    // The HtoD copy started at 110 us, before its cudaMemcpyAsync (105..113.5) returned. The launch lead is the
    // median return-to-start over the launches whose stream was idle when their call returned: memset 124 - 123
    // = 1, elementwise 130 - 128.5 = 1.5, gemm 315 - 314 = 1, elementwise 316 - 315 = 1, reduce_rows 405 - 403
    // = 2 (the first gemm, the first reduce_rows and the DtoH copy queued behind work on stream 7): 1 us. So the
    // copy was submitted by 110 - 1 = 109 us, 4 us into its call.
    REQUIRE(app.host[0].calls[0].submit);
    CHECK(*app.host[0].calls[0].submit == gpusched::Time{4'000'000});
    for (std::size_t c = 1; c < app.host[0].calls.size(); ++c) CHECK(!app.host[0].calls[c].submit);
    REQUIRE(app.notes.size() == 2);
    CHECK(app.notes[0] == "1 host calls start before the previous call of their thread ended (traceEvents[28] starts before "
                          "traceEvents[26] of host thread 4242 ended, ...; 2.0 us in all): each starts when the previous one ended");
    CHECK(app.notes[1].find("1 launch call returned after the GPU had started its work") == 0);
}

TEST_CASE("host timeline: calls without operations and operations without calls are noted; a graph launch is one call") {
    const std::string kernel = R"({"ph": "X", "cat": "kernel", "name": "k", "ts": TS, "dur": 1, "args": {"stream": 7, "correlation": C, "grid": [1, 1, 1], "block": [32, 1, 1]}})";
    const auto make = [&](const std::string& ts, const std::string& c) {
        std::string k = kernel;
        k.replace(k.find("TS"), 2, ts);
        k.replace(k.find('C', k.find("correlation")), 1, c);
        return k;
    };
    const auto launch = [](const std::string& name, const std::string& ts, const std::string& c) {
        return R"({"ph": "X", "cat": "cuda_runtime", "name": ")" + name + R"(", "tid": 9, "ts": )" + ts +
               R"(, "dur": 2, "args": {"correlation": )" + c + "}}";
    };
    // A graph launch (correlation 1) ran two kernels; launch 2 (5..7 us, inside the imported
    // window 1..30 us) has no kernel: its 2 us are counted; kernel 3 has no call.
    const std::string text = "{\"traceEvents\": [" + launch("cudaGraphLaunch", "1", "1") + "," + make("20", "1") + "," +
                             make("10", "1") + "," + launch("cudaLaunchKernel", "5", "2") + "," + make("30", "3") + "]}";
    const auto app = build_application(read_kineto_trace(temp_file("graph_host.json", text)), ImportOptions{});
    REQUIRE(app.host.size() == 1);
    CHECK(app.host[0].name == "9");
    CHECK(calls(app.host[0]) == std::vector<std::string>{"L0+1 0/2"});  // the kernels in GPU order, one call
    REQUIRE(app.notes.size() == 2);
    CHECK(app.notes[0].find("1 GPU operations without their host call") == 0);
    CHECK(app.notes[1] == "1 launch or copy calls without a GPU operation on device 0 (2 us of CPU time, kept in the gaps between calls)");
}

TEST_CASE("host timeline: a launch call that returned after its kernel started submits at that start less the launch lead") {
    const auto event = [](const std::string& cat, const std::string& name, const std::string& ts, const std::string& dur,
                          int correlation) {
        return R"({"ph": "X", "cat": ")" + cat + R"(", "name": ")" + name + R"(", "tid": 9, "ts": )" + ts + R"(, "dur": )" + dur +
               R"(, "args": {"stream": 7, "correlation": )" + std::to_string(correlation) +
               R"(, "grid": [1, 1, 1], "block": [32, 1, 1]}})";
    };
    // Three launches return at 3, 12 and 23 us and their kernels (1 us each, the stream idle) start 2, 2 and
    // 2.5 us later: the trace's launch lead is their median, 2 us. The fourth call runs 30..70 us but its
    // kernel started at 40 us: the runtime submitted it by 40 - 2 = 38 us, 8 us into the call.
    std::string text = "{\"traceEvents\": [";
    text += event("cuda_runtime", "cudaLaunchKernel", "1", "2", 1) + "," + event("kernel", "k", "5", "1", 1) + ",";
    text += event("cuda_runtime", "cudaLaunchKernel", "10", "2", 2) + "," + event("kernel", "k", "14", "1", 2) + ",";
    text += event("cuda_runtime", "cudaLaunchKernel", "20", "3", 3) + "," + event("kernel", "k", "25.5", "1", 3) + ",";
    text += event("cuda_runtime", "cudaLaunchKernel", "30", "40", 4) + "," + event("kernel", "k", "40", "1", 4) + "]}";
    const auto app = build_application(read_kineto_trace(temp_file("early_start.json", text)), ImportOptions{});
    REQUIRE(app.host.size() == 1);
    const auto& calls = app.host[0].calls;
    REQUIRE(calls.size() == 4);
    CHECK(!calls[0].submit);
    CHECK(!calls[1].submit);
    CHECK(!calls[2].submit);
    REQUIRE(calls[3].submit);
    CHECK(*calls[3].submit == gpusched::Time{8'000'000});  // 40 - 2 - 30 us
    CHECK(calls[3].cpu == gpusched::Time{40'000'000});
    REQUIRE(app.notes.size() == 1);
    CHECK(app.notes[0] == "1 launch call returned after the GPU had started its work: each submits at that start less the "
                          "trace's launch lead (`submit`), 2.0 us, the median time from a call's return to its operation's start "
                          "over the 3 launches that found their stream idle");
}
