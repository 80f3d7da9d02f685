// The range of simulated time: ends at or past 2^63 ps are TimeRangeErrors naming the launch or operation.
#include <doctest/doctest.h>

#include <string>

#include "gpusched/support/checked_time.h"
#include "gpusched/sim/output/summary_collector.h"
#include "support/sim_fixtures.h"

namespace gpusched {

namespace {

using workloads::Operation;

constexpr Time kHalf = Time{1} << 62;  // 2^62 ps: two in a row reach 2^63

/// The message of the TimeRangeError that running `app` throws ("" when it runs).
std::string range_error(const hw::GpuSpec& gpu, const workloads::Application& app, bool memoise = true,
                        bool summary = false) {
    auto policy = scheduler::make_policy("most-room");
    sim::Engine engine(gpu, app, *policy, "fixed");
    engine.set_memoise(memoise);
    sim::SummaryCollector collector;
    if (summary) engine.add_observer(collector);
    try {
        engine.run();
    } catch (const TimeRangeError& e) {
        return e.what();
    }
    return "";
}

Operation delay_op(Time delay) {
    Operation op;
    op.kind = Operation::Kind::delay;
    op.delay = delay;
    op.set_where("w.yaml:3");
    return op;
}

Operation kernel_op(std::size_t launch) {
    Operation op;
    op.launch = launch;
    return op;
}

}  // namespace

TEST_CASE("a block whose end reaches 2^63 ps is an error naming its launch, not a wrapped time") {
    // 1 SM, 3 blocks of 1024 threads: 2 fit (2048 threads per SM), so block 2 waits for the
    // first wave: it starts at 2^62 and would end at 2^63.
    const workloads::Application app = test::app_of({test::launch(3, 1024, kHalf)});
    const std::string message = range_error(test::small_gpu(1), app);
    CHECK(message.find("launch 0 (k): block 2 starts at 4611686018427387.904 ns and runs 4611686018427387.904 ns: "
                       "its end passes 2^63 ps (about 106 days)") != std::string::npos);
    // One wave fits: 2^62 ps is a valid makespan.
    const workloads::Application one_wave = test::app_of({test::launch(2, 1024, kHalf)});
    CHECK(range_error(test::small_gpu(1), one_wave).empty());
}

TEST_CASE("the last picosecond of the range is reachable, the next one is not") {
    // A block of 2^63 - 1 ps alone ends exactly at the last representable instant.
    const workloads::Application fits = test::app_of({test::launch(1, 32, kTimeLimit - 1)});
    const test::Recorder r = test::run(test::small_gpu(1), fits, "most-room");
    CHECK(r.makespan == kTimeLimit - 1);
    // A 1 ps delay first pushes the same block's end to 2^63.
    workloads::Application app = test::app_of({test::launch(1, 32, kTimeLimit - 1)});
    app.operations = {delay_op(1), kernel_op(0)};
    CHECK(range_error(test::small_gpu(1), app).find("launch 0 (k): block 0 starts at 0.001 ns") != std::string::npos);
}

TEST_CASE("delays in a row that pass 2^63 ps name the delay that crosses it") {
    // Four delays of 2^62 - 1 ps on one stream: the first two end at 2 x (2^62 - 1) = 2^63 - 2;
    // the third would end at 3 x (2^62 - 1) >= 2^63 (four of them wrapped before: the kernel
    // ran before the delays ended).
    workloads::Application app = test::app_of({test::launch(1, 32, 1000)});
    app.operations = {delay_op(kHalf - 1), delay_op(kHalf - 1), delay_op(kHalf - 1), delay_op(kHalf - 1),
                      kernel_op(0)};
    const std::string message = range_error(test::small_gpu(1), app);
    CHECK(message.find("operation 2 (delay on stream 0, w.yaml:3): its end") != std::string::npos);
    CHECK(message.find("passes 2^63 ps") != std::string::npos);
}

TEST_CASE("a copy whose transfer alone passes the range names the copy") {
    // 2^50 bytes at 10^-3 GB/s: 10^6 ps per byte, 1.1e21 ps (llround of it was undefined).
    hw::GpuSpec gpu = test::small_gpu(1);
    gpu.host_link_gbps = 1e-3;
    gpu.copy_engines = 1;
    workloads::Application app = test::app_of({test::launch(1, 32, 1000)});
    Operation copy;
    copy.kind = Operation::Kind::copy;
    copy.copy = {workloads::CopyDirection::host_to_device, true, std::uint64_t{1} << 50};
    app.operations = {copy, kernel_op(0)};
    CHECK(range_error(gpu, app).find("operation 0 (copy on stream 0): its transfer of 1125899906842624 bytes") !=
          std::string::npos);
}

TEST_CASE("repeats of a memoised launch that pass the range name the repeat") {
    // Two identical launches of 2^62 ps in a row on an idle GPU: the first runs 0..2^62, the
    // second repeats it from 2^62 and would end at 2^63.
    const workloads::KernelLaunch k = test::launch(1, 32, kHalf);
    const workloads::Application app = test::app_of({k, k});
    CHECK(range_error(test::small_gpu(1), app, true).find("launch 1 (k): its end: 4611686018427387.904 ns + "
                                                          "4611686018427387.904 ns passes") != std::string::npos);
    // Without memoisation the second launch's block reports the same end.
    CHECK(range_error(test::small_gpu(1), app, false).find("launch 1 (k): block 0 starts at") != std::string::npos);
}

TEST_CASE("an SM's busy time (overlapping blocks) that passes the range is an error naming the SM") {
    // Two blocks of 3 x 2^61 ps side by side on one SM: the makespan 3 x 2^61 < 2^63 is fine,
    // their summed busy time 3 x 2^62 is not.
    const workloads::Application app = test::app_of({test::launch(2, 1024, 3 * (kHalf / 2))});
    CHECK(range_error(test::small_gpu(1), app, true, false).empty());
    CHECK(range_error(test::small_gpu(1), app, true, true).find("SM 0: its busy time") != std::string::npos);
}

TEST_CASE("shared execution: a block whose work at its SM's rates passes the range is an error") {
    // One SM issuing 4 warp-instructions per ns (4 schedulers x 1 at 1000 MHz); a block of 8
    // warps of W slots each takes 8 W / 4 ns. W = 10^15: 2 x 10^15 ns = 2 x 10^18 ps, in range;
    // W = 10^16: 2 x 10^19 ps, past 2^63 (9.2 x 10^18).
    hw::GpuSpec gpu = test::small_gpu(1);
    gpu.warp_schedulers_per_sm = 4;
    gpu.issue_width = 1;
    gpu.clock_mhz = 1000;
    const auto kernel = [](double slots) {
        workloads::KernelLaunch k = test::launch(1, 256, 0);
        k.work = std::make_shared<test::LambdaWork>([](std::uint64_t) { return Time{0}; }, nullptr,
                                                    [slots](std::uint64_t) { return workloads::WarpWork{slots, 0, 0}; });
        return k;
    };
    CHECK(test::run(gpu, test::app_of({kernel(1e15)}), "most-room", nullptr, "shared").makespan ==
          Time{2'000'000'000'000'000'000});
    std::string message;
    try {
        test::run(gpu, test::app_of({kernel(1e16)}), "most-room", nullptr, "shared");
    } catch (const TimeRangeError& e) {
        message = e.what();
    }
    CHECK(message == "launch 0 (k): block 0 starts at 0.000 ns and runs at its SM's rates: its end passes 2^63 ps "
                     "(about 106 days), the range of simulated time");
}

TEST_CASE("host issue times: operation index x host_launch_interval_ns is checked") {
    // 10^12 ns (10^15 ps) per call, beyond a GPU file's bound, so that few operations reach
    // the range: operation i is issued at i x 10^15 ps.
    hw::GpuSpec gpu = test::small_gpu(1);
    gpu.host_launch_interval_ns = 1e12;
    workloads::Application app = test::app_of({test::launch(1, 32, 1000)});
    app.host_issue = workloads::HostIssue::calls;
    for (int i = 0; i < 10; ++i) app.operations.push_back(delay_op(0));
    app.operations.push_back(kernel_op(0));
    // 11 operations: the kernel is issued at 10 x 10^15 ps = 10^16 ps < 2^63: it runs.
    CHECK(range_error(gpu, app).empty());
    for (int i = 0; i < 10000; ++i) app.operations.insert(app.operations.begin(), delay_op(0));
    // 2^63 = 9223.37 x 10^15: operation 9223 is issued in range, operation 9224 is not.
    CHECK(range_error(gpu, app).find("operation 9224 (delay on stream 0, w.yaml:3): its host issue time: 9224 x") !=
          std::string::npos);
}

}  // namespace gpusched
