// The workload file's `host` section: launches and syncs read, mapped to operations, refused with their line and key.
#include <doctest/doctest.h>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/support/input_error.h"
#include "gpusched/workloads/workload_file.h"
#include "gpusched/workloads/ruled_numbers.h"
#include "gpusched/workloads/workload_writer.h"

using namespace gpusched;
using namespace gpusched::workloads;

namespace {

// Items: 0 kernel (stream 0), 1 record, 2 kernel repeated twice (2 operations), 3 copy.
const std::string items =
    "launches:\n"
    "  - {kernel: synthetic, blocks: 4, threads: 64, duration: 5us}\n"
    "  - {record: e, stream: 0}\n"
    "  - {kernel: synthetic, blocks: 4, threads: 64, duration: 5us, repeat: 2}\n"
    "  - {copy: h2d, bytes: 64, stream: 1}\n";

void check_error(const std::string& host, const std::string& message) {
    CAPTURE(host);
    CHECK_THROWS_WITH_AS(parse_workload(items + host, "w.yaml"), doctest::Contains(message.c_str()), InputError);
}

}  // namespace

TEST_CASE("host section: calls read, item indices mapped to operations, written back equal") {
    const std::string host = "host:\n  - thread: \"42\"\n    calls:\n"
                             "      - {launch: 0, gap: 20.1us, cpu: 4.25us}\n"
                             "      - {launch: 3, cpu: 2us, submit: 0.5us}\n"
                             "      - {sync: 1, gap: 1us, cpu: 0.5us}\n"
                             "      - {sync: device}\n";
    const WorkloadDocument doc = read_workload_document(items + host, "w.yaml");
    REQUIRE(doc.host.size() == 1);
    const auto& calls = doc.host[0].calls;
    REQUIRE(calls.size() == 4);
    CHECK(calls[0].ops == std::vector<std::size_t>{0});
    CHECK(calls[0].gap == 20'100'000);  // 20.1 us in ps
    CHECK(calls[0].cpu == 4'250'000);
    CHECK(calls[1].gap == 0);  // left out: 0
    CHECK(!calls[0].submit);   // left out: submitted as the call returns
    CHECK(calls[1].submit == Time{500'000});
    CHECK(calls[2].kind == HostCall::Kind::sync);
    CHECK(calls[2].stream == 1);
    CHECK(calls[3].stream == -1);  // device
    // Operations: kernel 0, record 1, the repeat's 2 and 3, the copy 4: item 3 is operation 4.
    const Application app = build_application(doc);
    REQUIRE(app.host.size() == 1);
    CHECK(app.host[0].calls[1].ops == std::vector<std::size_t>{4});
    CHECK(app.operations.size() == 5);
    // The writer's form reads back equal, and writing it again gives the same text.
    const std::string written = workload_yaml(doc);
    CHECK(written.find("      - {sync: device, gap: 0us, cpu: 0us}\n") != std::string::npos);
    CHECK(written.find("      - {launch: 3, gap: 0us, cpu: 2us, submit: 0.5us}\n") != std::string::npos);
    CHECK(read_workload_document(written, "again.yaml") == doc);
    CHECK(workload_yaml(read_workload_document(written, "again.yaml")) == written);
}

TEST_CASE("host section errors name the line and key") {
    const std::string head = "host:\n  - thread: main\n    calls:\n";
    check_error(head + "      - {launch: 4}\n", "w.yaml:9: key 'host[0].calls[0].launch': expected an index into launches, 0..3");
    check_error(head + "      - {launch: 1}\n", "w.yaml:9: key 'launch': launches[1] (w.yaml:3) is an event");
    check_error(head + "      - {launch: 2}\n", "stands for 2 operations");
    check_error(head + "      - {launch: 0}\n      - {launch: [3, 0]}\n", "w.yaml:10: key 'launch': launches[0] (w.yaml:2) is launched twice");
    check_error(head + "      - {sync: 1024}\n", "key 'host[0].calls[0].sync': expected a stream 0..1023 or 'device'");
    check_error(head + "      - {wait: 1}\n", "w.yaml:9: key 'host[0].calls[0]': expected a call");
    check_error(head + "      - {launch: 0, gap: soon}\n", "key 'host[0].calls[0].gap'");
    check_error("host: []\n", "key 'host': expected a non-empty list of threads");
    check_error(head + "      - {launch: 0, cpu: 2us, submit: 3us}\n",
                "w.yaml:9: key 'host[0].calls[0].submit': expected at most the call's cpu (2us)");
    check_error(head + "      - {launch: 0, cpu: 2us, submit: -1us}\n", "key 'host[0].calls[0].submit'");
    check_error(head + "      - {launch: 0, cpu: 2us, submit: later}\n", "key 'host[0].calls[0].submit'");
    check_error(head + "      - {sync: device, cpu: 2us, submit: 1us}\n", "key 'host[0].calls[0].submit': only a launch call");
}

TEST_CASE("a host timeline on a GPU without launch_queue_depth: the run's notes say the queues are unbounded") {
    const std::string host = "host:\n  - thread: main\n    calls:\n      - {launch: 0}\n";
    const Application app = parse_workload(items + host, "w.yaml");
    hw::GpuSpec gpu = hw::resolve_gpu("h100");
    CHECK(gpu.launch_queue_depth == 1021);  // hw/presets/h100.yaml [DEV launch_queue/]
    const auto has_note = [&] {
        for (const auto& note : ruled_number_notes(app, gpu, false))
            if (note.find("has no overheads.launch_queue_depth: the host's launch queues are unbounded") != std::string::npos) return true;
        return false;
    };
    CHECK_FALSE(has_note());
    gpu.launch_queue_depth.reset();
    CHECK(has_note());
}

TEST_CASE("iterations: the items and each thread's calls that many times, later calls naming their iteration's operations") {
    // One iteration: kernel item 0 and copy item 1 (2 operations), thread a launching both, thread b syncing.
    const std::string text = "iterations: 3\n"
                             "launches:\n"
                             "  - {kernel: synthetic, blocks: 4, threads: 64, duration: 5us}\n"
                             "  - {copy: h2d, bytes: 64, stream: 0}\n"
                             "host:\n  - thread: a\n    calls:\n      - {launch: 0, gap: 1us, cpu: 2us}\n      - {launch: 1}\n"
                             "  - thread: b\n    calls:\n      - {sync: device}\n";
    const WorkloadDocument doc = read_workload_document(text, "w.yaml");
    CHECK(doc.iterations == 3u);
    const Application app = build_application(doc);
    CHECK(app.launches.size() == 3);    // the kernel once per iteration
    CHECK(app.operations.size() == 6);  // kernel, copy; three times
    // Identical items share one work model (the engine memoises their later runs).
    CHECK(app.launches[0].work == app.launches[2].work);
    REQUIRE(app.host.size() == 2);
    const auto& a = app.host[0].calls;
    REQUIRE(a.size() == 6);
    // Iteration k's calls launch operations 2k and 2k + 1, and carry their iteration.
    for (std::size_t k = 0; k < 3; ++k) {
        CHECK(a[2 * k].ops == std::vector<std::size_t>{2 * k});
        CHECK(a[2 * k + 1].ops == std::vector<std::size_t>{2 * k + 1});
        CHECK(a[2 * k].round == k);
        CHECK(a[2 * k].gap == 1'000'000);  // each iteration's first call keeps its recorded gap
    }
    CHECK(app.host[1].calls.size() == 3);
    // Written back with the key; reads back equal.
    const std::string written = workload_yaml(doc);
    CHECK(written.find("iterations: 3\n") != std::string::npos);
    CHECK(read_workload_document(written, "again.yaml") == doc);
}

TEST_CASE("iterations: bad values and events are refused with the key") {
    const std::string launches = "launches:\n  - {kernel: synthetic, blocks: 4, threads: 64, duration: 5us}\n";
    CHECK_THROWS_WITH_AS(parse_workload("iterations: 0\n" + launches, "w.yaml"), doctest::Contains("key 'iterations'"), InputError);
    CHECK_THROWS_WITH_AS(parse_workload("iterations: many\n" + launches, "w.yaml"), doctest::Contains("key 'iterations'"), InputError);
    CHECK_THROWS_WITH_AS(parse_workload("iterations: 2\n" + launches + "  - {record: e, stream: 0}\n", "w.yaml"),
                         doctest::Contains("w.yaml:1: key 'iterations': launches[1] (w.yaml:4) names an event or an id"), InputError);
    // 600,000 iterations of 2 launches: more than the 1,000,000 launches a workload may have.
    CHECK_THROWS_WITH_AS(parse_workload("iterations: 600000\n" + launches + "  - {kernel: synthetic, blocks: 4, threads: 64, duration: 5us}\n",
                                        "w.yaml"),
                         doctest::Contains("w.yaml:1: key 'iterations': 600000 iterations of 2 launches would be more than 1000000 launches"),
                         InputError);
}
