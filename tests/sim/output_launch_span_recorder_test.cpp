// LaunchSpanRecorder: each launch's first block start and last block end, memoised launches included.
#include <doctest/doctest.h>

#include "gpusched/sim/output/launch_span_recorder.h"
#include "gpusched/sim/simulation.h"
#include "gpusched/workloads/kernel_spec.h"
#include "support/sim_fixtures.h"

using namespace gpusched;

TEST_CASE("LaunchSpanRecorder gives each launch its first start and last end") {
    constexpr Time us = 1'000'000;  // picoseconds
    // Two identical launches of 6 blocks x 1024 threads x 10 us on one stream, 2 SMs without
    // overheads: each runs two waves (4 blocks, then 2) for 20 us, the second right after the first.
    const hw::GpuSpec gpu = test::small_gpu(2);
    const std::string spec = "synthetic:blocks=6,threads=1024,duration=10us";
    const auto app = workloads::application_from_specs({spec, spec});
    const auto policy = scheduler::make_policy("most-room");
    sim::Simulation run(gpu, app, *policy, "fixed");
    sim::LaunchSpanRecorder spans;
    CHECK_FALSE(spans.needs_every_block());  // the second launch may be memoised
    run.observe(spans);
    run.run();
    REQUIRE(spans.spans().size() == 2);
    CHECK(spans.spans()[0].first_start == 0);
    CHECK(spans.spans()[0].end == 20 * us);
    CHECK(spans.spans()[1].first_start == 20 * us);
    CHECK(spans.spans()[1].end == 40 * us);
}

TEST_CASE("LaunchSpanRecorder leaves a launch that never completed at {0, 0}") {
    sim::LaunchSpanRecorder spans;
    const std::string spec = "synthetic:blocks=6,threads=1024,duration=10us";
    const auto app = workloads::application_from_specs({spec, spec, spec});
    sim::RunInfo info;
    info.app = &app;
    spans.on_begin(info);
    spans.on_kernel_completed(1, 5, 9);
    REQUIRE(spans.spans().size() == 3);
    CHECK(spans.spans()[0].end == 0);
    CHECK(spans.spans()[1].first_start == 5);
    CHECK(spans.spans()[1].end == 9);
    CHECK(spans.spans()[2].end == 0);
}
