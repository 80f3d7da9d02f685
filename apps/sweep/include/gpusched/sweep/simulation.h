// One simulation as `gpusched simulate` runs it: the execution model chosen for a workload, and a summary run.
#pragma once

#include <string>
#include <vector>

#include "gpusched/hw/gpu_spec.h"
#include "gpusched/hw/occupancy.h"
#include "gpusched/sim/output/summary_collector.h"
#include "gpusched/workloads/application.h"

namespace gpusched::sweep {

/// `auto`: the shared issue-slot model when every launch gives per-warp work, else fixed
/// durations; any other name is returned as is (the engine checks it).
std::string resolve_execution(const std::string& requested, const workloads::Application& app);

/// The summary of one run and each launch's occupancy.
struct SimulationOutcome {
    sim::RunSummary summary;
    std::vector<hw::OccupancyResult> occupancy;
};

/// Runs app on gpu under the named policy and execution model (`auto` resolved as above),
/// with only a SummaryCollector observing (so identical launches are memoised).
/// InputError when a launch cannot run on the GPU, or for an unknown policy or model.
SimulationOutcome simulate_summary(const hw::GpuSpec& gpu, const workloads::Application& app,
                                   const std::string& policy, const std::string& execution);

}  // namespace gpusched::sweep
