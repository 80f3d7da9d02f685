// read_kineto_trace: what is kept of a realistic trace, and bad traces refused naming the file and the event index.
#include <doctest/doctest.h>

#include "gpusched/importers/kineto_reader.h"
#include "gpusched/support/input_error.h"
#include "importers/importer_test_files.h"

using gpusched::InputError;
using gpusched::importers::GpuOp;
using gpusched::importers::HostCall;
using gpusched::importers::read_kineto_trace;
using gpusched::importers::SyncEvent;
using gpusched::test::importer_data;
using gpusched::test::temp_file;

namespace {

/// A trace around the given events (JSON text of the traceEvents elements).
std::string trace_with(const std::string& events) {
    return R"({"deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3", "computeMajor": 9, "computeMinor": 0, "numSms": 132}],
               "traceEvents": [)" + events + "]}";
}

const std::string kKernel = R"({"ph": "X", "cat": "kernel", "name": "k", "ts": 10.5, "dur": 2.25,
    "args": {"device": 0, "stream": 7, "correlation": 3, "registers per thread": 32, "shared memory": 1024, "grid": [4, 2, 1], "block": [128, 1, 1]}})";

std::string read_error(const std::string& name, const std::string& text) {
    try {
        (void)read_kineto_trace(temp_file(name, text));
    } catch (const InputError& e) {
        return gpusched::test::without_temp_dir(e.what());
    }
    return "(no error)";
}

}  // namespace

TEST_CASE("the two-stream trace keeps its kernels, copies, memset, host calls, syncs and steps") {
    const auto trace = read_kineto_trace(importer_data("two_streams.json"));
    CHECK(trace.event_count == 35);
    REQUIRE(trace.devices.size() == 1);
    CHECK(trace.devices[0].name == "NVIDIA H100 80GB HBM3");
    CHECK(trace.devices[0].sm_count == 132);
    CHECK(trace.devices[0].cc_major == 9);
    // 6 kernels, 2 memcpys and 1 memset; cudaGetDevice is dropped: 13 host calls of the kinds used.
    CHECK(trace.ops.size() == 9);
    CHECK(trace.calls.size() == 13);
    CHECK(trace.syncs.size() == 2);
    CHECK(trace.steps.size() == 2);  // the gpu_user_annotation copy of step 1 is not a host span
    const GpuOp& gemm = trace.ops[1];
    CHECK(gemm.kind == GpuOp::Kind::kernel);
    CHECK(trace.names[gemm.name] == "void gemm_kernel<128, 64>(float const*, float*, int)");
    // ts are kept as ps after the first ts of the file (ProfilerStep#1 at 100 us): 131 us -> 31 us.
    CHECK(gemm.start == 31'000'000);
    CHECK(gemm.duration == 50'250'000);
    CHECK(gemm.grid == std::array<std::uint32_t, 3>{128, 1, 1});
    CHECK(gemm.block == std::array<std::uint32_t, 3>{256, 1, 1});
    CHECK(gemm.regs == 96);
    CHECK(gemm.shared == 49152);
    CHECK(gemm.stream == 7);
    CHECK(gemm.correlation == 11);
    CHECK(trace.ops[0].kind == GpuOp::Kind::copy);
    CHECK(trace.ops[0].copy == GpuOp::Copy::h2d);
    CHECK(trace.ops[0].pageable);
    CHECK(trace.ops[0].bytes == 1048576);
    CHECK(trace.ops[2].kind == GpuOp::Kind::memset);
    CHECK(trace.syncs[0].kind == SyncEvent::Kind::stream_wait_event);
    CHECK(trace.syncs[0].wait_on_stream == 13);
    CHECK(trace.syncs[0].record_correlation == 14);
    CHECK(trace.steps[1].number == 2);
    CHECK(trace.steps[1].start == 200'000'000);
    CHECK(trace.steps[1].end == 350'000'000);
    CHECK_FALSE(trace.has_recorder);
}

TEST_CASE("the recorder's extra args: static and dynamic shared memory, cluster, stream priority, version") {
    const auto trace = read_kineto_trace(importer_data("cupti_recording.json"));
    CHECK(trace.has_recorder);
    CHECK(trace.recorder_version == "1");
    REQUIRE(trace.ops.size() == 3);
    CHECK(trace.ops[0].static_shared == 8192);
    CHECK(trace.ops[0].dynamic_shared == 32768);
    CHECK(trace.ops[0].cluster == std::array<std::uint32_t, 3>{2, 1, 1});
    CHECK(trace.ops[0].has_priority);
    CHECK(trace.ops[0].stream_priority == -1);
    CHECK(trace.ops[2].correlation == -1);
    CHECK(trace.calls[1].kind == HostCall::Kind::launch);  // cuLaunchKernelEx, a driver call
}

TEST_CASE("Kineto's own kernel arg 'priority' (CUDA 13.1+, CUpti_ActivityKernel11) is the stream priority") {
    // Kineto writes "priority": N in a kernel's args since pytorch/kineto f2a7423 (2026-04); the
    // recorder writes "stream priority". Older Kineto traces carry no priority.
    const std::string kernel = R"({"ph": "X", "cat": "kernel", "name": "k", "ts": 10.5, "dur": 2.25,
    "args": {"device": 0, "stream": 7, "correlation": 3, "priority": -3, "grid": [4, 2, 1], "block": [128, 1, 1]}})";
    const auto trace = read_kineto_trace(temp_file("kineto_priority.json", trace_with(kernel)));
    REQUIRE(trace.ops.size() == 1);
    CHECK(trace.ops[0].has_priority);
    CHECK(trace.ops[0].stream_priority == -3);
    const auto plain = read_kineto_trace(temp_file("kineto_no_priority.json", trace_with(kKernel)));
    CHECK_FALSE(plain.ops[0].has_priority);
}

TEST_CASE("a trace that is not Kineto's is refused naming the file") {
    CHECK(read_error("array.json", "[{\"ph\": \"X\"}]").find("array.json: not a Kineto trace: the top level is a JSON array") == 0);
    CHECK(read_error("no_events.json", "{\"deviceProperties\": []}").find("no_events.json: not a Kineto trace: no 'traceEvents'") == 0);
    CHECK(read_error("events_obj.json", "{\"traceEvents\": {}}").find("events_obj.json: 'traceEvents' is not an array") == 0);
    CHECK(read_error("empty.json", "").find("empty.json: not valid JSON at text byte") == 0);
    CHECK(read_error("yaml.json", "launches:\n  - kernel: x\n").find("yaml.json: not valid JSON at text byte 1") == 0);
    CHECK(read_error("twice.json", "{\"traceEvents\": [], \"traceEvents\": []}").find("'traceEvents' is given twice") != std::string::npos);
}

TEST_CASE("broken JSON and bad events name the event index") {
    const std::string cut = trace_with(kKernel + "," + kKernel).substr(0, 400);
    CHECK(read_error("cut.json", cut).find("cut.json: not valid JSON at text byte") == 0);
    CHECK(read_error("cut.json", cut).find("(in traceEvents[1])") != std::string::npos);
    CHECK(read_error("scalar.json", trace_with("1")).find("traceEvents[0] is not an object") != std::string::npos);
    const auto bad = [&](const std::string& from, const std::string& to) {
        std::string event = kKernel;
        const auto at = event.find(from);
        REQUIRE(at != std::string::npos);
        event.replace(at, from.size(), to);
        return read_error("bad.json", trace_with(kKernel + "," + event));
    };
    CHECK(bad("\"grid\": [4, 2, 1]", "\"grid\": [4, 2]").find("bad.json: traceEvents[1]: kernel event 'k': 'args.grid' must be [x, y, z]") == 0);
    CHECK(bad("\"grid\": [4, 2, 1]", "\"grid\": [0, 2, 1]").find("traceEvents[1]: kernel event 'k': 'args.grid' value 0 is outside") != std::string::npos);
    CHECK(bad("\"grid\": [4, 2, 1]", "\"grid\": [2147483647, 2147483647, 1]").find("more than 2^40 blocks") != std::string::npos);
    CHECK(bad("\"grid\": [4, 2, 1]", "\"grid\": [4, 2, 1, 1]").find("'args.grid' has more than 3 values") != std::string::npos);
    CHECK(bad("\"block\": [128, 1, 1]", "\"block\": [2048, 1024, 1]").find("more than 2^20 threads") != std::string::npos);
    CHECK(bad("\"registers per thread\": 32", "\"registers per thread\": 70000").find("outside 0..65536") != std::string::npos);
    CHECK(bad("\"registers per thread\": 32", "\"registers per thread\": 3.5").find("'registers per thread' must be an integer") != std::string::npos);
    CHECK(bad("\"stream\": 7, ", "").find("traceEvents[1]: kernel event 'k': missing 'args.stream'") != std::string::npos);
    CHECK(bad("\"dur\": 2.25", "\"dur\": -1").find("traceEvents[1]: 'dur' must be 0..2^62 ps") != std::string::npos);
    CHECK(bad("\"dur\": 2.25", "\"dur\": \"2.25\"").find("traceEvents[1]: 'dur' must be a number") != std::string::npos);
    CHECK(bad("\"ts\": 10.5", "\"ts\": 1e300").find("traceEvents[1]: 'ts' is out of range") != std::string::npos);
    CHECK(bad("\"ts\": 10.5", "\"ts\": 9000000000000.0").find("traceEvents[1]: 'ts' is more than 2^62 ps") != std::string::npos);
    CHECK(bad("\"ts\": 10.5, ", "").find("traceEvents[1]: kernel event 'k': missing 'ts'") != std::string::npos);
}

TEST_CASE("nesting and token caps bound the parser's memory whatever the file") {
    CHECK(read_error("deep.json", "{\"traceEvents\": [{\"args\": " + std::string(100, '[') + std::string(100, ']') + "}]}")
              .find("deep.json: JSON nested deeper than 64 levels in traceEvents[0]") == 0);
    CHECK(read_error("long.json", "{\"traceEvents\": [{\"name\": \"" + std::string((std::size_t{1} << 20) + 10, 'a') + "\"}]}")
              .find("long.json: a JSON string or number longer than 1 MiB at text byte") == 0);
    CHECK(read_error("digits.json", "{\"traceEvents\": [" + std::string((std::size_t{1} << 20) + 10, '1') + "]}")
              .find("a JSON string or number longer than 1 MiB") != std::string::npos);
}

TEST_CASE("deviceProperties entries need a name and an SM count") {
    CHECK(read_error("dev.json", R"({"deviceProperties": [{"id": 0, "numSms": 132}], "traceEvents": []})")
              .find("dev.json: deviceProperties[0]: missing 'name'") == 0);
    CHECK(read_error("dev.json", R"({"deviceProperties": [{"id": 0, "name": "x", "numSms": 0}], "traceEvents": []})")
              .find("dev.json: deviceProperties[0]: 'numSms' 0 is outside 1..100000") == 0);
    CHECK(read_error("dev.json", R"({"deviceProperties": [{"id": 0, "name": "x", "numSms": 1}, {"id": 0, "name": "y", "numSms": 1}], "traceEvents": []})")
              .find("deviceProperties[1]: device id 0 is listed twice") != std::string::npos);
}

TEST_CASE("the event caps: more traceEvents elements or kept records than allowed") {
    gpusched::importers::ReadLimits limits;
    limits.trace.max_events = 20;  // the two-stream trace has 35 elements
    CHECK_THROWS_WITH_AS(read_kineto_trace(importer_data("two_streams.json"), limits),
                         doctest::Contains("two_streams.json: more than 20 trace events (the importer's cap)"), InputError);
    limits = {};
    limits.trace.max_kept = 10;  // the 11th record kept is the cudaStreamWaitEvent, traceEvents[15]
    CHECK_THROWS_WITH_AS(read_kineto_trace(importer_data("two_streams.json"), limits),
                         doctest::Contains("two_streams.json: traceEvents[15]: more than 10 GPU operations, host calls and markers"), InputError);
}
