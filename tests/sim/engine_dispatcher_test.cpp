// Dispatcher alone: a pass, batched room changes, the refill fast path, done launches freed, the policy's run state.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "gpusched/sim/engine/dispatcher.h"
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
    sim::LaunchTable launches{gpu, app, pool, 64};
    sim::Dispatcher dispatcher{gpu, launches, *policy};
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
    /// The launch becomes ready and a first pass fills both SMs: blocks 0..3 placed, block 4 waits.
    void fill() {
        dispatcher.activate(0, pool);
        dispatcher.request_pass(core, 0);
        pass();
        REQUIRE(placed.size() == 4);
    }
};

}  // namespace

TEST_CASE("dispatcher: a pass places what fits; a batched room change lets the next pass place the rest") {
    World w;
    CHECK(w.launches.occupancy().at(0).blocks_per_sm == 2);
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
    CHECK(w.launches[0].dispatched == 4);
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
    w.fill();
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

TEST_CASE("dispatcher: a done launch's dispatcher is freed; check_all_placed accepts it") {
    World w;
    w.fill();
    w.pool.release(1, w.slots[1]);
    w.dispatcher.mark_room_changed(1);
    w.pass();
    REQUIRE(w.dispatcher.active_count() == 0);  // all 5 blocks dispatched
    CHECK(w.launches[0].dispatcher != nullptr);
    w.launches[0].completed = 5;  // as the engine counts the blocks' ends
    w.dispatcher.launch_done(0);
    CHECK(w.launches[0].done);
    CHECK(w.launches[0].dispatcher == nullptr);
    CHECK_NOTHROW(w.launches.check_all_placed());
}

TEST_CASE("dispatcher: a launch's dispatcher is made at activation only, and told its SMs' room") {
    World w;
    CHECK(w.launches[0].dispatcher == nullptr);
    w.dispatcher.activate(0, w.pool);
    REQUIRE(w.launches[0].dispatcher != nullptr);
    CHECK(w.launches[0].unit_footprint == &w.launches[0].shape->block_footprint);  // most-room places blocks
    CHECK_FALSE(w.launches[0].counts_ends);                                         // no clusters
    // Told at activation: 2 empty SMs of room 2 each, so 4 of the 5 blocks go in the first pass.
    w.dispatcher.request_pass(w.core, 0);
    w.pass();
    CHECK(w.placed.size() == 4);
}

namespace {

/// A policy whose run state counts the launches started in one run: the Dispatcher makes the
/// state once and hands the same object to every launch's start.
class CountingPolicy final : public sim::DispatchPolicy {
public:
    struct Count final : sim::PolicyRunState {
        int started = 0;
    };
    [[nodiscard]] std::string name() const override { return "counting"; }
    [[nodiscard]] bool work_conserving() const override { return true; }
    [[nodiscard]] bool keeps_state() const override { return true; }
    [[nodiscard]] std::unique_ptr<sim::PolicyRunState> begin_run() const override {
        ++runs;
        return std::make_unique<Count>();
    }
    [[nodiscard]] std::unique_ptr<sim::KernelDispatcher> start(const sim::LaunchContext& c) const override {
        REQUIRE(c.run_state != nullptr);
        started.push_back(++static_cast<Count*>(c.run_state)->started);
        return inner_->start(c);
    }
    mutable int runs = 0;
    mutable std::vector<int> started;  ///< the run state's count after each start

private:
    std::unique_ptr<sim::DispatchPolicy> inner_ = scheduler::make_policy("most-room");
};

}  // namespace

TEST_CASE("dispatcher: the policy's run state is made once per Dispatcher and shared by its launches") {
    hw::GpuSpec gpu = test::small_gpu(2);
    const workloads::Application app = test::app_of({test::launch(1, 32, 1000), test::launch(1, 32, 1000)});
    const CountingPolicy policy;
    sim::SmPool pool(gpu);
    sim::LaunchTable launches(gpu, app, pool, 64);
    {
        sim::Dispatcher dispatcher(gpu, launches, policy);
        CHECK(policy.runs == 1);
        dispatcher.activate(0, pool);
        dispatcher.activate(1, pool);
    }
    CHECK(policy.started == std::vector<int>{1, 2});  // one state: the second start sees the first's count
    sim::Dispatcher next_run(gpu, launches, policy);
    CHECK(policy.runs == 2);
}

}  // namespace gpusched
