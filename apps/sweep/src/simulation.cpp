// One summary-only simulation, the same steps as `gpusched simulate`.
#include "gpusched/sweep/simulation.h"

#include "gpusched/scheduler/registry.h"
#include "gpusched/sim/engine.h"

namespace gpusched::sweep {

std::string resolve_execution(const std::string& requested, const workloads::Application& app) {
    if (requested != "auto") return requested;
    for (const auto& launch : app.launches)
        if (!launch.work || !launch.work->warp_work(0)) return "fixed";
    return "shared";
}

SimulationOutcome simulate_summary(const hw::GpuSpec& gpu, const workloads::Application& app,
                                   const std::string& policy, const std::string& execution) {
    const auto dispatch = scheduler::make_policy(policy);
    sim::Engine engine(gpu, app, *dispatch, resolve_execution(execution, app));
    sim::SummaryCollector summary;
    engine.add_observer(summary);
    engine.run();
    return {summary.summary(), engine.occupancy()};
}

}  // namespace gpusched::sweep
