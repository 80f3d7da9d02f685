// A summary-only run of one sweep point (sim::Simulation with a policy named and only a summary observing).
#pragma once

#include <string>
#include <vector>

#include "gpusched/hw/gpu_spec.h"
#include "gpusched/hw/occupancy.h"
#include "gpusched/sim/output/summary_collector.h"
#include "gpusched/workloads/application.h"

namespace gpusched::sweep {

/// The summary of one run and each launch's occupancy.
struct SimulationOutcome {
    sim::RunSummary summary;
    std::vector<hw::OccupancyResult> occupancy;
};

/// Runs app on gpu under the named policy and execution model (`auto` resolved by sim::resolve_execution_model),
/// with only a SummaryCollector observing (so identical launches are memoised).
/// InputError when a launch cannot run on the GPU, or for an unknown policy or model.
SimulationOutcome simulate_summary(const hw::GpuSpec& gpu, const workloads::Application& app,
                                   const std::string& policy, const std::string& execution);

}  // namespace gpusched::sweep
