// One summary-only simulation, the same steps as `gpusched simulate`.
#include "gpusched/sweep/simulation.h"

#include "gpusched/scheduler/registry.h"
#include "gpusched/sim/simulation.h"

namespace gpusched::sweep {

SimulationOutcome simulate_summary(const hw::GpuSpec& gpu, const workloads::Application& app,
                                   const std::string& policy, const std::string& execution) {
    const auto dispatch = scheduler::make_policy(policy);
    sim::Simulation run(gpu, app, *dispatch, execution);
    sim::SummaryCollector summary;
    run.observe(summary);
    run.run();
    return {summary.summary(), run.occupancy()};
}

}  // namespace gpusched::sweep
