// LaunchTable alone: shared shapes and occupancy, resolved priorities and SM sets, the input checks in order, the final check.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "gpusched/sim/engine/launch_table.h"
#include "gpusched/sim/engine/resident_table.h"
#include "gpusched/support/input_error.h"
#include "support/sim_fixtures.h"

namespace gpusched {

TEST_CASE("launch table: launches of one request share a shape and an occupancy result") {
    // 1000 launches of 1024-thread blocks (2 per SM of 2048 threads) and one of 256-thread
    // blocks (8 per SM): two shapes, two stored results; launches of one shape share their
    // footprints, and all of them the unmasked SM set.
    const hw::GpuSpec gpu = test::small_gpu(2);
    std::vector<workloads::KernelLaunch> launches(1000, test::launch(1, 1024, 1000));
    launches.push_back(test::launch(1, 256, 1000));
    const workloads::Application app = test::app_of(launches);
    const sim::SmPool pool(gpu);
    const sim::LaunchTable table(gpu, app, pool, 64);
    CHECK(table.size() == 1001);
    CHECK(table.shape_count() == 2);
    CHECK(table.sm_set_count() == 1);
    CHECK(table.occupancy().size() == 1001);
    CHECK(table.occupancy().distinct() == 2);
    CHECK(table.occupancy()[999].blocks_per_sm == 2);
    CHECK(table.occupancy()[1000].blocks_per_sm == 8);
    CHECK(table[999].shape == table[0].shape);
    CHECK(table[1000].shape != table[0].shape);
    CHECK(table[1000].sms == table[0].sms);
    CHECK(table[0].block_footprint().threads == 1024);
    CHECK(table[0].shape->warp_footprint.warps == 1);  // one warp of the block, for warp-level policies
    CHECK(table[0].launch == &app.launches[0]);
    CHECK(table[0].work == app.launches[0].work.get());
    CHECK(table[0].dispatcher == nullptr);  // the Dispatcher makes it at activation
}

TEST_CASE("launch table: a stream's priority is resolved once (high = the GPU's greatest), unlisted streams get 0") {
    // small_gpu is the H100's: priorities 0 (least) down to -5 (greatest).
    const hw::GpuSpec gpu = test::small_gpu(2);
    workloads::Application app = test::app_of(
        {test::launch(1, 32, 1000, 0), test::launch(1, 32, 1000, 1), test::launch(1, 32, 1000, 2), test::launch(1, 32, 1000, 7)});
    app.streams = {{1, workloads::StreamPriority::high, {}}, {2, workloads::StreamPriority::cuda(-3), {}}};
    const sim::SmPool pool(gpu);
    const sim::LaunchTable table(gpu, app, pool, 64);
    CHECK(table[0].priority == 0);   // stream 0, not listed
    CHECK(table[1].priority == -5);  // high
    CHECK(table[2].priority == -3);
    CHECK(table[3].priority == 0);   // stream 7, not listed
    app.streams = {{1, workloads::StreamPriority::cuda(-6), {}}};
    CHECK_THROWS_WITH_AS(sim::LaunchTable(gpu, app, pool, 64),
                         "stream 1: key 'priority': -6 is not a stream priority of GPU h100 (streams.priority_range: "
                         "0 (least) down to -5 (greatest)); expected normal, high or an integer from 0 down to -5",
                         InputError);
}

TEST_CASE("launch table: bad launches are InputErrors naming the launch, the first problem first") {
    const hw::GpuSpec gpu = test::small_gpu(2);
    const sim::SmPool pool(gpu);
    std::vector<workloads::KernelLaunch> launches{test::launch(1, 32, 1000), test::launch(1, 32, 1000)};
    launches[1].work.reset();
    const workloads::Application no_work = test::app_of(launches);
    CHECK_THROWS_WITH_AS(sim::LaunchTable(gpu, no_work, pool, 64), doctest::Contains("launch 1 ("), InputError);
    CHECK_THROWS_WITH_AS(sim::LaunchTable(gpu, no_work, pool, 64), doctest::Contains("has no work model"), InputError);
    // 2048 threads per block do not fit the H100's 1024: the occupancy error, prefixed with launch 0,
    // comes before launch 1's missing work.
    launches[0] = test::launch(1, 2048, 1000);
    const workloads::Application both = test::app_of(launches);
    CHECK_THROWS_WITH_AS(sim::LaunchTable(gpu, both, pool, 64), doctest::Contains("launch 0 ("), InputError);
}

TEST_CASE("launch table: a GPU with more resident-block slots than an event can name is refused, naming the GPU") {
    // 9000 SMs round up to 2^14; 4096 blocks and 4096 warps per SM give 4096 slots (2^12): 2^26 indices,
    // at or above the completion-group flag 2^25. With the preset's 64 warps per SM: 2^14 x 64 = 2^20, fine.
    hw::GpuSpec gpu = test::small_gpu(9000);
    gpu.max_blocks_per_sm = 4096;
    gpu.max_warps_per_sm = 4096;
    const workloads::Application app = test::app_of({test::launch(1, 32, 1000)});
    const sim::SmPool pool(gpu);
    CHECK_THROWS_WITH_AS(sim::LaunchTable(gpu, app, pool, sim::ResidentTable(gpu).size()),
                         "the GPU h100 has 9000 SMs of 4096 resident-block slots each (max_blocks_per_sm, at most "
                         "max_warps_per_sm): more than the engine can name (sm_count rounded up to a power of two, "
                         "times the slots, must stay below 33554432)",
                         InputError);
    gpu.max_warps_per_sm = 64;
    const sim::SmPool fits(gpu);
    CHECK_NOTHROW(sim::LaunchTable(gpu, app, fits, sim::ResidentTable(gpu).size()));
}

TEST_CASE("launch table: check_all_placed names the first launch neither done nor repeated") {
    const hw::GpuSpec gpu = test::small_gpu(2);
    const workloads::Application app = test::app_of({test::launch(1, 32, 1000), test::launch(1, 32, 1000)});
    const sim::SmPool pool(gpu);
    sim::LaunchTable table(gpu, app, pool, 64);
    CHECK_THROWS_WITH_AS(table.check_all_placed(), doctest::Contains("launch 0 ("), InputError);
    table[0].done = true;
    CHECK_THROWS_WITH_AS(table.check_all_placed(), doctest::Contains("launch 1 ("), InputError);
    table[1].repeated = true;  // memoised: never placed block by block, yet complete
    CHECK_NOTHROW(table.check_all_placed());
}

}  // namespace gpusched
