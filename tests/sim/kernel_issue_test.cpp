// Kernel issue: a CUDA graph's launch overhead (issue: graph, + per pending kernel) and the GPU-wide kernel start interval.
#include <doctest/doctest.h>

#include <string>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/hw/presets.h"
#include "gpusched/support/input_error.h"
#include "gpusched/workloads/ruled_numbers.h"
#include "gpusched/workloads/workload_file.h"
#include "support/sim_fixtures.h"

namespace gpusched {

namespace {

constexpr Time kNs = 1000;
constexpr Time kUs = 1'000'000;

/// 4 SMs, no dispatch latency: a kernel's first block starts when it is ready. A stream's launch
/// is ready 500 ns after its turn, a graph's 200 ns.
hw::GpuSpec issue_gpu() {
    hw::GpuSpec g = test::small_gpu(4);
    g.kernel_launch_ns = 500;
    g.graph_kernel_launch_ns = 200;
    return g;
}

/// Three one-block kernels of 1 us on stream 0.
workloads::Application three_kernels(workloads::HostIssue issue) {
    workloads::Application app =
        test::app_of({test::launch(1, 32, 1 * kUs), test::launch(1, 32, 1 * kUs), test::launch(1, 32, 1 * kUs)});
    app.host_issue = issue;
    return app;
}

/// One one-block kernel of `duration` on each of streams 0..3.
workloads::Application four_streams(Time duration) {
    return test::app_of({test::launch(1, 32, duration, 0), test::launch(1, 32, duration, 1),
                         test::launch(1, 32, duration, 2), test::launch(1, 32, duration, 3)});
}

}  // namespace

TEST_CASE("graph issue: a stream's next kernel is ready graph_kernel_launch_ns after the previous one ends") {
    // Graph: ready 0.2; runs 0.2..1.2; next ready 1.2 + 0.2 = 1.4, runs 1.4..2.4; then 2.6..3.6.
    auto graph = test::run(issue_gpu(), three_kernels(workloads::HostIssue::graph), "most-room");
    CHECK(graph.ready == std::vector<Time>{200 * kNs, 1400 * kNs, 2600 * kNs});
    CHECK(graph.makespan == 3600 * kNs);
    // Queued on a stream: 0.5, 1.5 + 0.5 = 2.0, 3.0 + 0.5 = 3.5; ends 4.5.
    auto queued = test::run(issue_gpu(), three_kernels(workloads::HostIssue::queued), "most-room");
    CHECK(queued.ready == std::vector<Time>{500 * kNs, 2000 * kNs, 3500 * kNs});
    CHECK(queued.makespan == 4500 * kNs);
    // Without graph_kernel_launch_ns a graph's kernels take kernel_launch_ns: as queued, and a note says so.
    hw::GpuSpec plain = issue_gpu();
    plain.graph_kernel_launch_ns.reset();
    const auto app = three_kernels(workloads::HostIssue::graph);
    auto fallback = test::run(plain, app, "most-room");
    CHECK(fallback.ready == queued.ready);
    const auto notes = workloads::ruled_number_notes(app, plain, false);
    REQUIRE(notes.size() == 1);
    CHECK(notes[0].find("no overheads.graph_kernel_launch_ns") != std::string::npos);
    CHECK(workloads::ruled_number_notes(app, issue_gpu(), false).empty());
}

TEST_CASE("kernel start interval: kernels become ready GPU-wide at least kernel_start_interval_ns apart") {
    hw::GpuSpec gpu = issue_gpu();
    // No interval: all four streams' kernels are ready at 0.5 us and run side by side, 0.5..1.5.
    auto free = test::run(gpu, four_streams(1 * kUs), "most-room");
    CHECK(free.ready == std::vector<Time>{500 * kNs, 500 * kNs, 500 * kNs, 500 * kNs});
    CHECK(free.makespan == 1500 * kNs);
    // 300 ns: ready 0.5, 0.8, 1.1, 1.4; the last runs 1.4..2.4.
    gpu.kernel_start_interval_ns = 300;
    auto spaced = test::run(gpu, four_streams(1 * kUs), "most-room");
    CHECK(spaced.ready == std::vector<Time>{500 * kNs, 800 * kNs, 1100 * kNs, 1400 * kNs});
    CHECK(spaced.makespan == 2400 * kNs);
    // Graph issue on one stream: each kernel's own gap (1.2 us apart) is longer than 300 ns, so
    // nothing changes: 0.2, 1.4, 2.6 as without the interval.
    auto graph = test::run(gpu, three_kernels(workloads::HostIssue::graph), "most-room");
    CHECK(graph.ready == std::vector<Time>{200 * kNs, 1400 * kNs, 2600 * kNs});
}

TEST_CASE("kernel start interval: a stream's next kernel waits for the interval only when it is due sooner") {
    // Streams 0..3 with 0 ns kernels (they end when ready): 0.5, 0.8, 1.1, 1.4 by the interval;
    // then stream 0's second kernel starts at 0.5 (its first ended) and is due at 1.0 but the
    // interval gives 1.4 + 0.3 = 1.7.
    hw::GpuSpec gpu = issue_gpu();
    gpu.kernel_start_interval_ns = 300;
    workloads::Application app = four_streams(0);
    app.launches.push_back(test::launch(1, 32, 0, 0));
    auto r = test::run(gpu, app, "most-room");
    CHECK(r.ready == std::vector<Time>{500 * kNs, 800 * kNs, 1100 * kNs, 1400 * kNs, 1700 * kNs});
}

TEST_CASE("graph issue: a kernel's launch takes graph_launch_per_pending_kernel_ns more per kernel still on its way") {
    hw::GpuSpec gpu = issue_gpu();
    gpu.graph_launch_per_pending_kernel_ns = 50;
    workloads::Application graph_app = four_streams(1 * kUs);
    graph_app.host_issue = workloads::HostIssue::graph;
    // All four start at 0 in stream order; the n-th finds n kernels started and not ready:
    // ready 0.2 + 0.05 n = 0.2, 0.25, 0.3, 0.35 us.
    auto graph = test::run(gpu, graph_app, "most-room");
    CHECK(graph.ready == std::vector<Time>{200 * kNs, 250 * kNs, 300 * kNs, 350 * kNs});
    // One stream: the next kernel starts when the previous one ends, none is on its way: 0.2, 1.4, 2.6.
    auto one = test::run(gpu, three_kernels(workloads::HostIssue::graph), "most-room");
    CHECK(one.ready == std::vector<Time>{200 * kNs, 1400 * kNs, 2600 * kNs});
    // Queued on streams (not a graph) the key does not apply: all ready at 0.5.
    auto queued = test::run(gpu, four_streams(1 * kUs), "most-room");
    CHECK(queued.ready == std::vector<Time>{500 * kNs, 500 * kNs, 500 * kNs, 500 * kNs});
    // With the start interval (300 ns) the later of the two: max(0.2 + 0.05 n, previous + 0.3) = 0.2, 0.5, 0.8, 1.1.
    gpu.kernel_start_interval_ns = 300;
    auto both = test::run(gpu, graph_app, "most-room");
    CHECK(both.ready == std::vector<Time>{200 * kNs, 500 * kNs, 800 * kNs, 1100 * kNs});
}

TEST_CASE("issue: graph is a workload key value; the GPU keys are range-checked by name") {
    const std::string body = "launches:\n  - kernel: synthetic\n    blocks: 2\n    threads: 32\n    duration: 1us\n";
    CHECK(workloads::parse_workload("issue: graph\n" + body, "w.yaml").host_issue == workloads::HostIssue::graph);
    CHECK_THROWS_WITH_AS(workloads::parse_workload("issue: graphs\n" + body, "w.yaml"),
                         doctest::Contains("key 'issue': expected one of queued, host-calls, graph"), InputError);
    const std::string h100 = std::string(*hw::preset_yaml("h100"));
    const hw::GpuSpec spec = hw::parse_gpu_spec(h100, "h100.yaml");
    CHECK(spec.graph_kernel_launch_ns == 682);  // 864 measured - D 182
    CHECK(spec.kernel_start_interval_ns == 160);
    CHECK(spec.graph_launch_per_pending_kernel_ns == 72);  // 71.6 ns per start, kernel_issue/ graph runs
    const hw::GpuSpec again = hw::parse_gpu_spec(hw::to_yaml(spec), "again.yaml");
    CHECK(again.kernel_start_interval_ns == 160);
    CHECK(again.graph_launch_per_pending_kernel_ns == 72);
    for (const std::string key : {"graph_kernel_launch_ns", "graph_launch_per_pending_kernel_ns", "kernel_start_interval_ns"}) {
        CAPTURE(key);
        const auto at = h100.find("  " + key + ":");
        REQUIRE(at != std::string::npos);
        const auto end = h100.find('\n', at);
        const std::string bad = h100.substr(0, at) + "  " + key + ": -1" + h100.substr(end);
        const std::string named = "overheads." + key;
        CHECK_THROWS_WITH_AS(hw::parse_gpu_spec(bad, "bad.yaml"), doctest::Contains(named.c_str()), InputError);
    }
}

}  // namespace gpusched
