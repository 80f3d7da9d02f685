// BlockRecorder: every completed block in completion order, a cap on those kept, and no memoisation.
#include <doctest/doctest.h>

#include "gpusched/sim/output/block_recorder.h"
#include "gpusched/sim/simulation.h"
#include "gpusched/workloads/kernel_spec.h"
#include "support/sim_fixtures.h"

using namespace gpusched;

namespace {

constexpr Time us = 1'000'000;  // picoseconds

/// 6 blocks of 1024 threads, 10 us each, on 2 SMs without overheads: 2048 threads per SM hold 2
/// blocks, so 4 blocks run in [0, 10 us) and the last 2 in [10 us, 20 us).
const char* const kTwoWaves = "synthetic:blocks=6,threads=1024,duration=10us";

}  // namespace

TEST_CASE("BlockRecorder keeps every block of the run in completion order") {
    const hw::GpuSpec gpu = test::small_gpu(2);
    const auto app = workloads::application_from_specs({kTwoWaves});
    const auto policy = scheduler::make_policy("most-room");
    sim::Simulation run(gpu, app, *policy, "fixed");
    sim::BlockRecorder recorder;
    run.observe(recorder);
    run.run();
    REQUIRE(recorder.blocks().size() == 6);
    CHECK(recorder.blocks_seen() == 6);
    for (std::size_t i = 0; i < 4; ++i) {
        CHECK(recorder.blocks()[i].start == 0);
        CHECK(recorder.blocks()[i].end == 10 * us);
    }
    for (std::size_t i = 4; i < 6; ++i) {
        CHECK(recorder.blocks()[i].start == 10 * us);
        CHECK(recorder.blocks()[i].end == 20 * us);
    }
    const auto taken = recorder.take_blocks();
    CHECK(taken.size() == 6);
    CHECK(recorder.blocks().empty());
}

TEST_CASE("BlockRecorder with a cap keeps the first blocks and counts them all") {
    const hw::GpuSpec gpu = test::small_gpu(2);
    const auto app = workloads::application_from_specs({kTwoWaves});
    const auto policy = scheduler::make_policy("most-room");
    sim::Simulation run(gpu, app, *policy, "fixed");
    sim::BlockRecorder recorder(3);
    run.observe(recorder);
    run.run();
    CHECK(recorder.blocks().size() == 3);
    CHECK(recorder.blocks_seen() == 6);
    for (const auto& b : recorder.blocks()) CHECK(b.end == 10 * us);  // the first wave ends first
}

TEST_CASE("BlockRecorder sees the blocks of repeated launches one by one") {
    sim::BlockRecorder recorder;
    CHECK(recorder.needs_every_block());
    // Two identical launches on one stream: the second is not memoised while a recorder observes.
    const hw::GpuSpec gpu = test::small_gpu(2);
    const auto app = workloads::application_from_specs({kTwoWaves, kTwoWaves});
    const auto policy = scheduler::make_policy("most-room");
    sim::Simulation run(gpu, app, *policy, "fixed");
    run.observe(recorder);
    run.run();
    CHECK(recorder.blocks_seen() == 12);
    CHECK(recorder.blocks().back().launch == 1);
}
