// Dispatcher alone: launch checks, a pass, batched room changes, the refill fast path.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "gpusched/sim/engine/dispatcher.h"
#include "gpusched/sim/engine/resident_table.h"
#include "gpusched/support/input_error.h"
#include "support/sim_fixtures.h"

namespace gpusched {

namespace {

/// The dispatcher's world: 2 H100 SMs; 1024-thread blocks, two per SM (2048 threads per SM).
struct World {
    hw::GpuSpec gpu = test::small_gpu(2);
    workloads::Application app = test::app_of({test::launch(5, 1024, 1000)});
    std::unique_ptr<sim::DispatchPolicy> policy = scheduler::make_policy("most-room");
    sim::SmPool pool{gpu};
    sim::EventCore core;
    sim::Dispatcher dispatcher{gpu, app, *policy, pool, 64};
    std::vector<sim::Placement> placed;
    std::vector<int> slots;

    /// Starts each placement as the engine does: reserves its resources.
    void start(const sim::LaunchState& launch, const sim::Placement& p) {
        const int slot = pool.reserve(p.sm, *launch.unit_footprint);
        REQUIRE(slot >= 0);
        placed.push_back(p);
        slots.push_back(slot);
    }
    void pass() {
        core.begin_pass();
        dispatcher.run_pass(core, pool, [this](sim::LaunchState& launch, std::size_t, std::span<const sim::Placement> ps) {
            for (const sim::Placement& p : ps) start(launch, p);
        });
    }
};

}  // namespace

TEST_CASE("dispatcher: a pass places what fits; a batched room change lets the next pass place the rest") {
    World w;
    CHECK(w.dispatcher.occupancy().at(0).blocks_per_sm == 2);
    w.dispatcher.activate(0, w.pool);
    CHECK(w.dispatcher.active_count() == 1);
    // most-room: the SM with the most room first, ties by id: blocks 0..3 on SMs 0 1 0 1.
    w.dispatcher.request_pass(w.core, 0);
    w.pass();
    REQUIRE(w.placed.size() == 4);
    for (std::size_t b = 0; b < 4; ++b) {
        CHECK(w.placed[b].block == b);
        CHECK(w.placed[b].sm == static_cast<int>(b % 2));
    }
    CHECK(w.dispatcher.units_dispatched() == 4);
    CHECK(w.dispatcher.launch(0).dispatched == 4);
    CHECK(w.dispatcher.active_count() == 1);  // block 4 waits
    // Block 1 (SM 1) leaves; its room change is reported at the next pass, which places block 4 there.
    w.pool.release(1, w.slots[1]);
    w.dispatcher.mark_room_changed(1);
    w.dispatcher.mark_room_changed(1);  // once per pass however often it is marked
    w.pass();
    REQUIRE(w.placed.size() == 5);
    CHECK(w.placed[4].block == 4);
    CHECK(w.placed[4].sm == 1);
    CHECK(w.dispatcher.active_count() == 0);  // fully dispatched
    CHECK(w.dispatcher.units_dispatched() == 5);
}

TEST_CASE("dispatcher: the refill fast path places on the freed SM, and declines while a pass is pending") {
    World w;
    w.dispatcher.activate(0, w.pool);
    w.dispatcher.request_pass(w.core, 0);
    w.pass();
    REQUIRE(w.placed.size() == 4);
    w.pool.release(0, w.slots[0]);  // SM 0 has room for exactly one block, every other SM none
    const auto start = [&w](sim::LaunchState& launch, std::size_t, const sim::Placement& p) { w.start(launch, p); };
    w.core.request_pass(10);
    CHECK_FALSE(w.dispatcher.try_refill(0, w.core, w.pool, start));
    CHECK(w.placed.size() == 4);
    w.core.begin_pass();  // no pass pending any more, no event at now
    CHECK(w.dispatcher.try_refill(0, w.core, w.pool, start));
    REQUIRE(w.placed.size() == 5);
    CHECK(w.placed[4].block == 4);
    CHECK(w.placed[4].sm == 0);
    CHECK(w.dispatcher.units_dispatched() == 5);
    CHECK(w.dispatcher.active_count() == 0);
}

TEST_CASE("dispatcher: a stream mask naming a missing SM is an InputError; an unplaceable launch is reported after the run") {
    hw::GpuSpec gpu = test::small_gpu(2);
    workloads::Application app = test::app_of({test::launch(1, 32, 1000, 3)});
    app.streams.push_back({3, workloads::StreamPriority::normal, {4}});
    const auto policy = scheduler::make_policy("most-room");
    const sim::SmPool pool(gpu);
    try {
        sim::Dispatcher dispatcher(gpu, app, *policy, pool, 64);
        FAIL("no InputError");
    } catch (const InputError& e) {
        CHECK(std::string(e.what()) == "stream 3: SM 4 in its SM mask does not exist on " + gpu.name + " (SMs 0..1)");
    }
    app.streams.clear();
    const sim::Dispatcher never_ready(gpu, app, *policy, pool, 64);
    CHECK_THROWS_AS(never_ready.check_all_placed(), InputError);
}

TEST_CASE("dispatcher: launches of one request share a shape and an occupancy result; done frees the dispatcher") {
    // 1000 launches of 1024-thread blocks (2 per SM) and one of 256-thread blocks (8 per SM):
    // two shapes, two stored results; launches of one shape share their footprints and SM lists.
    hw::GpuSpec gpu = test::small_gpu(2);
    std::vector<workloads::KernelLaunch> launches(1000, test::launch(1, 1024, 1000));
    launches.push_back(test::launch(1, 256, 1000));
    const workloads::Application app = test::app_of(launches);
    const auto policy = scheduler::make_policy("most-room");
    sim::SmPool pool(gpu);
    sim::Dispatcher dispatcher(gpu, app, *policy, pool, 64);
    CHECK(dispatcher.shape_count() == 2);
    CHECK(dispatcher.occupancy().size() == 1001);
    CHECK(dispatcher.occupancy().distinct() == 2);
    CHECK(dispatcher.occupancy()[999].blocks_per_sm == 2);
    CHECK(dispatcher.occupancy()[1000].blocks_per_sm == 8);
    CHECK(dispatcher.launch(999).shape == dispatcher.launch(0).shape);
    CHECK(dispatcher.launch(1000).shape != dispatcher.launch(0).shape);
    CHECK(dispatcher.launch(1000).sms == dispatcher.launch(0).sms);  // both unmasked
    CHECK(dispatcher.launch(0).dispatcher == nullptr);               // made at activation only
}

TEST_CASE("dispatcher: a done launch's dispatcher is freed; check_all_placed accepts it") {
    World w;
    w.dispatcher.activate(0, w.pool);
    w.dispatcher.request_pass(w.core, 0);
    w.pass();
    w.pool.release(1, w.slots[1]);
    w.dispatcher.mark_room_changed(1);
    w.pass();
    REQUIRE(w.dispatcher.active_count() == 0);  // all 5 blocks dispatched
    CHECK(w.dispatcher.launch(0).dispatcher != nullptr);
    w.dispatcher.launch(0).completed = 5;  // as the engine counts the blocks' ends
    w.dispatcher.launch_done(0);
    CHECK(w.dispatcher.launch(0).done);
    CHECK(w.dispatcher.launch(0).dispatcher == nullptr);
    CHECK_NOTHROW(w.dispatcher.check_all_placed());
}

TEST_CASE("dispatcher: a GPU with more resident-block slots than an event can name is refused, naming the GPU") {
    // 9000 SMs round up to 2^14; 4096 blocks and 4096 warps per SM give 4096 slots (2^12): 2^26 indices,
    // at or above the completion-group flag 2^25. With the preset's 64 warps per SM: 2^14 x 64 = 2^20, fine.
    hw::GpuSpec gpu = test::small_gpu(9000);
    gpu.max_blocks_per_sm = 4096;
    gpu.max_warps_per_sm = 4096;
    const workloads::Application app = test::app_of({test::launch(1, 32, 1000)});
    const auto policy = scheduler::make_policy("most-room");
    const sim::SmPool pool(gpu);
    CHECK_THROWS_WITH_AS(sim::Dispatcher(gpu, app, *policy, pool, sim::ResidentTable(gpu).size()),
                         "the GPU h100 has 9000 SMs of 4096 resident-block slots each (max_blocks_per_sm, at most "
                         "max_warps_per_sm): more than the engine can name (sm_count rounded up to a power of two, "
                         "times the slots, must stay below 33554432)",
                         InputError);
    gpu.max_warps_per_sm = 64;
    const sim::SmPool fits(gpu);
    CHECK_NOTHROW(sim::Dispatcher(gpu, app, *policy, fits, sim::ResidentTable(gpu).size()));
}

}  // namespace gpusched
