// A summary-only run of one sweep point (sim::Simulation with a policy named and only a summary observing).
#pragma once

#include <functional>
#include <stdexcept>

#include <string>
#include <vector>

#include "gpusched/hw/gpu_spec.h"
#include "gpusched/hw/occupancy.h"
#include "gpusched/sim/output/summary_collector.h"
#include "gpusched/workloads/application.h"

namespace gpusched::sweep {

/// Thrown out of simulate_summary when its `stop` returned true during the run.
class RunStopped : public std::runtime_error {
public:
    RunStopped() : std::runtime_error("simulation stopped on request") {}
};

/// The summary of one run and each launch's occupancy.
struct SimulationOutcome {
    sim::RunSummary summary;
    std::vector<hw::OccupancyResult> occupancy;
};

/// Runs app on gpu under the named policy and execution model (`auto` resolved by sim::resolve_execution_model),
/// with only a SummaryCollector observing (so identical launches are memoised).
/// InputError when a launch cannot run on the GPU, or for an unknown policy or model. `stop`, when
/// given, is asked every few thousand blocks whether to give up (RunStopped).
SimulationOutcome simulate_summary(const hw::GpuSpec& gpu, const workloads::Application& app,
                                   const std::string& policy, const std::string& execution,
                                   const std::function<bool()>& stop = {});

}  // namespace gpusched::sweep
