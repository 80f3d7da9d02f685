// Host issue: one host thread issues the operations one API call apart (issue: host-calls).
#include <doctest/doctest.h>

#include <string>

#include "gpusched/support/input_error.h"
#include "gpusched/workloads/workload_file.h"
#include "support/sim_fixtures.h"

namespace gpusched {

namespace {

constexpr Time kNs = 1000;
constexpr Time kUs = 1'000'000;

/// 4 SMs, 500 ns from a kernel's start (issue + dependencies) to its first block, 2 us per host call.
hw::GpuSpec host_gpu() {
    hw::GpuSpec g = test::small_gpu(4);
    g.kernel_launch_ns = 500;
    g.host_launch_interval_ns = 2000;
    return g;
}

/// Three one-block kernels of `duration` on stream 0, issued as host calls.
workloads::Application three_kernels(Time duration, workloads::HostIssue issue) {
    workloads::Application app = test::app_of({test::launch(1, 32, duration), test::launch(1, 32, duration),
                                               test::launch(1, 32, duration)});
    app.host_issue = issue;
    return app;
}

}  // namespace

TEST_CASE("host calls: short kernels wait for the host, long kernels hide it") {
    // 1 us kernels. Host calls at 0, 2, 4 us. Kernel 0: 0 + 0.5 -> runs 0.5..1.5. Kernel 1: its
    // stream is free at 1.5 but the host issues it at 2.0, so 2.0 + 0.5 -> 2.5..3.5. Kernel 2:
    // issued at 4.0 -> 4.5..5.5. Queued (all issued at 0): 0.5..1.5, 2.0..3.0, 3.5..4.5.
    auto calls = test::run(host_gpu(), three_kernels(1 * kUs, workloads::HostIssue::calls), "most-room");
    CHECK(calls.ready == std::vector<Time>{500 * kNs, 2500 * kNs, 4500 * kNs});
    CHECK(calls.makespan == 5500 * kNs);
    auto queued = test::run(host_gpu(), three_kernels(1 * kUs, workloads::HostIssue::queued), "most-room");
    CHECK(queued.ready == std::vector<Time>{500 * kNs, 2000 * kNs, 3500 * kNs});
    CHECK(queued.makespan == 4500 * kNs);
    // 3 us kernels: each is issued (2, 4 us) before the one ahead ends (3.5, 7 us), so the host
    // costs nothing: 0.5..3.5, 4.0..7.0, 7.5..10.5 either way.
    auto long_calls = test::run(host_gpu(), three_kernels(3 * kUs, workloads::HostIssue::calls), "most-room");
    CHECK(long_calls.ready == std::vector<Time>{500 * kNs, 4000 * kNs, 7500 * kNs});
    CHECK(long_calls.makespan == 10500 * kNs);
}

TEST_CASE("host calls: event records are calls too, and finish when issued") {
    // record(start) at 0, the kernel issued at 2 us (0.5 us later it runs 1 us), record(stop)
    // issued at 4 us: the application ends at 4 us, after the kernel's 3.5 us.
    workloads::Application app = test::app_of({test::launch(1, 32, 1 * kUs)});
    app.host_issue = workloads::HostIssue::calls;
    workloads::Operation start, kernel, stop;
    start.kind = stop.kind = workloads::Operation::Kind::record;
    start.set_event("start");
    stop.set_event("stop");
    app.operations = {start, kernel, stop};
    auto r = test::run(host_gpu(), app, "most-room");
    CHECK(r.ready == std::vector<Time>{2500 * kNs});
    CHECK(r.blocks.at(0).end == 3500 * kNs);
    CHECK(r.makespan == 4000 * kNs);
}

TEST_CASE("host calls need the GPU's host_launch_interval_ns; the workload key takes two values") {
    hw::GpuSpec gpu = host_gpu();
    gpu.host_launch_interval_ns.reset();
    CHECK_THROWS_WITH_AS(test::run(gpu, three_kernels(kUs, workloads::HostIssue::calls), "most-room"),
                         doctest::Contains("overheads.host_launch_interval_ns"), InputError);
    const std::string body = "launches:\n  - kernel: synthetic\n    blocks: 2\n    threads: 32\n    duration: 1us\n";
    CHECK(workloads::parse_workload("issue: host-calls\n" + body, "w.yaml").host_issue == workloads::HostIssue::calls);
    CHECK(workloads::parse_workload("issue: queued\n" + body, "w.yaml").host_issue == workloads::HostIssue::queued);
    CHECK(workloads::parse_workload(body, "w.yaml").host_issue == workloads::HostIssue::queued);
    CHECK_THROWS_WITH_AS(workloads::parse_workload("issue: later\n" + body, "w.yaml"),
                         doctest::Contains("key 'issue': expected one of queued, host-calls"), InputError);
}

}  // namespace gpusched
