// LaunchPipeline alone: dispatch latency and one block at a time per SM.
#include <doctest/doctest.h>

#include "gpusched/sim/engine/launch_pipeline.h"
#include "support/sim_fixtures.h"

namespace gpusched {

TEST_CASE("launch pipeline: none without sm_block_launch_ns / sm_warp_launch_ns") {
    hw::GpuSpec gpu = test::small_gpu(2);
    gpu.block_dispatch_latency_ns = 182;
    const sim::LaunchPipeline pipeline(gpu);
    CHECK_FALSE(pipeline.active());
    CHECK(pipeline.latency() == 182'000);
}

TEST_CASE("launch pipeline: start = max(ready, free_sm); free_sm = start + a + b w") {
    // d = 100 ns, a = 50 ns, b = 2.5 ns per warp; blocks of 8 warps: a + b w = 70 ns.
    hw::GpuSpec gpu = test::small_gpu(2);
    gpu.block_dispatch_latency_ns = 100;
    gpu.sm_block_launch_ns = 50;
    gpu.sm_warp_launch_ns = 2.5;
    sim::LaunchPipeline pipeline(gpu);
    CHECK(pipeline.active());
    CHECK(pipeline.latency() == 100'000);
    // Three blocks dispatched on SM 0 at t = 0 (ready at 100 ns): start 100, 170, 240 ns.
    CHECK(pipeline.start(0, 100'000, 8) == 100'000);
    CHECK(pipeline.start(0, 100'000, 8) == 170'000);
    CHECK(pipeline.start(0, 100'000, 8) == 240'000);
    // SM 1 has its own pipeline: a block ready at 100 ns starts then.
    CHECK(pipeline.start(1, 100'000, 8) == 100'000);
    // A lone refill on SM 0 ready at 1 us, long after its pipeline freed (310 ns): starts at 1 us.
    CHECK(pipeline.start(0, 1'000'000, 1) == 1'000'000);
    // Its 1 warp: free_sm = 1 us + 50 + 2.5 ns (rounded to whole ps) = 1052.5 ns.
    CHECK(pipeline.start(0, 1'000'000, 1) == 1'052'500);
}

}  // namespace gpusched
