// Engine built with an execution model object: the same run as the model named by string.
#include <doctest/doctest.h>

#include <stdexcept>

#include "gpusched/sim/execution/shared_execution.h"
#include "support/sim_fixtures.h"

namespace gpusched {

TEST_CASE("engine: an execution model passed as an object runs exactly as the one named") {
    // 9 blocks of 100 ns on 3 SMs, 2 per SM (1024 threads): waves at 0, 100, 200 ns... with
    // most-room 6 run at 0 and 3 at 100 ns: makespan 200 ns either way.
    const hw::GpuSpec gpu = test::small_gpu(3);
    const workloads::Application app = test::app_of({test::launch(9, 1024, 100'000)});
    const auto policy = scheduler::make_policy("most-room");
    sim::Engine by_name(gpu, app, *policy, "fixed");
    sim::Engine by_object(gpu, app, *policy, std::make_unique<sim::FixedExecution>(app));
    test::Recorder named, object;
    by_name.add_observer(named);
    by_object.add_observer(object);
    const sim::SimResult a = by_name.run();
    const sim::SimResult b = by_object.run();
    CHECK(a.makespan == 200'000);
    CHECK(b.makespan == a.makespan);
    CHECK(b.units == 9);
    CHECK(object.per_sm == named.per_sm);
    CHECK(by_object.occupancy().at(0).blocks_per_sm == 2);
    CHECK_THROWS_AS(sim::Engine(gpu, app, *policy, std::unique_ptr<sim::ExecutionModel>{}), std::invalid_argument);
}

}  // namespace gpusched
