// The imported workload (as written by the workload writer) and measured timeline: exact text of the key items, determinism, and a parse by the workload reader.
#include <doctest/doctest.h>

#include <sstream>

#include "gpusched/importers/imported_application.h"
#include "gpusched/importers/kineto_reader.h"
#include "gpusched/importers/imported_workload.h"
#include "gpusched/workloads/generator_registry.h"
#include "gpusched/workloads/workload_file.h"
#include "gpusched/workloads/workload_writer.h"
#include "importers/importer_test_files.h"
#include "importers/synthetic_stand_in.h"

using namespace gpusched::importers;
using gpusched::test::importer_data;

namespace {

struct Written {
    std::string yaml, timeline;
};

Written import(const std::string& file, const ImportOptions& options = {}) {
    const auto trace = read_kineto_trace(importer_data(file));
    const auto app = build_application(trace, options);
    ImportSource source{"torch", "data/" + file, "h100", "NVIDIA H100 80GB HBM3", 132};
    std::ostringstream timeline;
    write_measured_timeline(timeline, trace, app, source);
    return {gpusched::workloads::workload_yaml(imported_workload(trace, app, source)), timeline.str()};
}

}  // namespace

TEST_CASE("format_us writes picoseconds as microseconds the workload reader reads back exactly") {
    CHECK(format_us(12'345'000) == "12.345us");
    CHECK(format_us(3'000'000) == "3us");
    CHECK(format_us(1) == "0.000001us");
    CHECK(format_us(0) == "0us");
}

TEST_CASE("kernels, copies, memsets, gaps and syncs of the two-stream trace as workload items (--frozen-gaps)") {
    ImportOptions frozen;
    frozen.frozen_gaps = true;
    const Written w = import("two_streams.json", frozen);
    CHECK(w.yaml.find("notes:\n  - \"Workload imported by `gpusched import torch` from two_streams.json (docs/importing.md).\"\n"
                      "  - \"device 0: NVIDIA H100 80GB HBM3 (132 SMs) -> GPU preset h100\"\n"
                      "  - \"steps: all\"\n") == 0);
    CHECK(w.yaml.find("  - \"6 kernels, 2 copies, 1 memset or device copy (as delays), 4 host gaps (as delays), 1 cross-stream wait, "
                      "2 host synchronisations\"\n") != std::string::npos);
    CHECK(w.yaml.find("  - \"trace stream -> workload stream: 7->0, 13->1\"\n") != std::string::npos);
    CHECK(w.yaml.find("description: \"imported from two_streams.json (torch, steps all)\"\n") != std::string::npos);
    CHECK(w.yaml.find("streams:") == std::string::npos);  // no stream priority in a PyTorch trace
    CHECK(w.yaml.find("launches:\n"
                      "  - {copy: h2d, bytes: 1048576, memory: pageable, stream: 0, notes: [\"measured 20.5us\"]}\n"
                      "  - kernel: kernel\n"
                      "    notes: [\"void gemm_kernel<128, 64>(float const*, float*, int)\"]\n"
                      "    name: \"gemm_kernel[128+64]\"\n"
                      "    stream: 0\n"
                      "    grid: 128x1x1\n"
                      "    block: 256x1x1\n"
                      "    regs: 96\n"
                      "    smem: 49152\n"
                      "    measured: 50.25us\n"
                      "    measured_gpu: h100\n"
                      "  - {delay: 15us, stream: 1, notes: [\"host gap\"]}\n"
                      "  - {delay: 2us, stream: 1, notes: [\"Memset (Device), 4096 bytes: its measured time\"]}\n") != std::string::npos);
    CHECK(w.yaml.find("  - {record: ev14, stream: 1}\n  - {wait: ev14, stream: 0}\n") != std::string::npos);
    CHECK(w.yaml.find("  - {copy: d2h, bytes: 4096, memory: pinned, stream: 0, notes: [\"measured 3us\"]}\n  - {record: hostsync-s0, stream: 0}\n") !=
          std::string::npos);
    CHECK(w.yaml.find("  - {wait: hostsync-s1, stream: 0}\n  - {delay: 34us, stream: 0, notes: [\"host gap\"]}\n") != std::string::npos);
}

TEST_CASE("the measured timeline: one row per kernel, times after the first imported event") {
    const Written w = import("two_streams.json");
    // Origin 105 us (the first cudaMemcpyAsync): the gemm ran 131..181.25 us -> 26..76.25 us.
    CHECK(w.timeline.find("# source=torch\n# trace=two_streams.json\n# device=NVIDIA H100 80GB HBM3\n# gpu=h100\n# sm_count=132\n") == 28);
    CHECK(w.timeline.find("kernel,launch,stream,start_ns,end_ns,duration_ns,grid,block\n"
                          "gemm_kernel[128+64],0,0,26000.000,76250.000,50250.000,128x1x1,256x1x1\n") != std::string::npos);
    CHECK(w.timeline.find("reduce_rows[float],5,0,300000.000,310000.000,10000.000,64x1x1,512x1x1\n") != std::string::npos);
}

TEST_CASE("two imports of one trace are byte-identical, and gzip gives the same workload as plain JSON") {
    const Written a = import("two_streams.json"), b = import("two_streams.json"), z = import("two_streams.json.gz");
    CHECK(a.yaml == b.yaml);
    CHECK(a.timeline == b.timeline);
    std::string renamed = z.yaml;  // the file name appears in the header and the description only
    for (std::size_t at; (at = renamed.find("two_streams.json.gz")) != std::string::npos;) renamed.replace(at, 19, "two_streams.json");
    CHECK(renamed == a.yaml);
    CHECK(z.timeline.substr(z.timeline.find("kernel,launch")) == a.timeline.substr(a.timeline.find("kernel,launch")));
}

TEST_CASE("the recorder's file: static/dynamic shared memory, a stream's priority, a kernel without a launch call") {
    const Written w = import("cupti_recording.json");
    // Trace stream 14 (workload stream 0) has "stream priority": -1, written as that integer;
    // stream 15 (workload stream 1) has 0 (normal) and is not listed.
    CHECK(w.yaml.find("streams:\n  - {id: 0, priority: -1}\nlaunches:\n") != std::string::npos);
    CHECK(w.yaml.find(", \"cluster 2x1x1 (not modelled)\"]\n") != std::string::npos);
    CHECK(w.yaml.find("    smem: 32768\n    static_smem: 8192\n") != std::string::npos);
    CHECK(w.yaml.find("  - \"recorder: gpusched-record version 1\"\n") != std::string::npos);
}

TEST_CASE("each stream's priority is the integer its kernels carry, the greatest (CUDA: lowest) when they differ") {
    // Workload stream 0 (trace stream 7): kernels of priority -2 and -5 -> -5 (a stream's priority
    // does not change in CUDA; -5 is the greater). Stream 1 (trace 9): -1. Stream 2 (trace 11): 0, not listed.
    const auto kernel = [](double ts, int stream, int correlation, int priority) {
        return R"({"ph": "X", "cat": "kernel", "name": "k", "ts": )" + std::to_string(ts) + R"(, "dur": 1.0,
            "args": {"device": 0, "stream": )" + std::to_string(stream) + R"(, "correlation": )" +
               std::to_string(correlation) + R"(, "priority": )" + std::to_string(priority) +
               R"(, "grid": [4, 1, 1], "block": [128, 1, 1]}})";
    };
    const std::string text = R"({"deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3", "computeMajor": 9,
        "computeMinor": 0, "numSms": 132}], "traceEvents": [)" + kernel(10, 7, 1, -2) + "," + kernel(12, 9, 2, -1) + "," +
                             kernel(14, 7, 3, -5) + "," + kernel(16, 11, 4, 0) + "]}";
    const auto trace = read_kineto_trace(gpusched::test::temp_file("levels.json", text));
    const auto app = build_application(trace, {});
    ImportSource source{"torch", "levels.json", "h100", "NVIDIA H100 80GB HBM3", 132};
    CHECK(gpusched::workloads::workload_yaml(imported_workload(trace, app, source)).find("streams:\n  - {id: 0, priority: -5}\n  - {id: 1, priority: -1}\nlaunches:\n") !=
          std::string::npos);
}

TEST_CASE("the workload reader accepts the imported file") {
    // Until the `kernel` generator is in the registry, its items are read as synthetic kernels of
    // the measured duration (synthetic_stand_in): the streams, copies, delays and events are the
    // importer's own and must parse either way.
    const Written w = import("two_streams.json");
    const bool have_kernel = gpusched::workloads::find_kernel_generator("kernel") != nullptr;
    const std::string yaml = have_kernel ? w.yaml : gpusched::test::synthetic_stand_in(w.yaml);
    const auto app = gpusched::workloads::parse_workload(yaml, "imported.yaml");
    CHECK(app.launches.size() == 6);
    CHECK(app.operations.size() == 11);  // every item of build_application's list: 9 operations, a record and a wait
    REQUIRE(app.host.size() == 1);
    CHECK(app.host[0].calls.size() == 11);  // 9 launches, 2 syncs (imported_application_test.cpp lists them)
    CHECK(w.yaml.find("host:\n  - thread: \"4242\"\n    calls:\n      - {launch: 0, gap: 0us, cpu: 8.5us, submit: 4us}\n") != std::string::npos);
    CHECK(app.launches[0].name == "gemm_kernel[128+64]");
    CHECK(app.launches[1].stream == 1);
}
