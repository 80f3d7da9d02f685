// Simulation: the one way to assemble and run a simulation (GPU, application, policy, execution model, observers).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "gpusched/hw/gpu_spec.h"
#include "gpusched/hw/occupancy.h"
#include "gpusched/sim/dispatch_policy.h"
#include "gpusched/sim/engine.h"
#include "gpusched/sim/execution/execution_model.h"
#include "gpusched/sim/observer.h"
#include "gpusched/workloads/application.h"

namespace gpusched::sim {

/// One run of an application on a GPU. Every command, validation section, calibration, sweep
/// point and benchmark builds its run here, so they all resolve the execution model the same
/// way (kDefaultExecutionModel when none is named).
///
///     const auto policy = scheduler::make_policy("most-room");
///     sim::Simulation run(gpu, app, *policy);          // execution model: auto
///     sim::SummaryCollector summary;
///     run.observe(summary);
///     const sim::SimResult result = run.run();
///
/// The simulation keeps references to the GPU, the application, the policy and the observers:
/// they must outlive it. A Simulation runs once.
class Simulation {
public:
    /// `execution`: a name from execution_models() ("auto" resolves by the application:
    /// resolve_execution_model). InputError for an unknown name, a launch that cannot run on the
    /// GPU, or a workload the model cannot time. Under the `shared` model, measured launches are
    /// first calibrated against the engine on their reference GPU (calibrate_measured_launches,
    /// with `policy`); the simulation then runs on that calibrated copy of `app`.
    Simulation(const hw::GpuSpec& gpu, const workloads::Application& app, const DispatchPolicy& policy,
               const std::string& execution = std::string(kDefaultExecutionModel));
    /// With a model object (e.g. one made by make_execution_model, or a model of your own): the
    /// application as given, no calibration (the model is already bound to it).
    Simulation(const hw::GpuSpec& gpu, const workloads::Application& app, const DispatchPolicy& policy,
               std::unique_ptr<ExecutionModel> execution);
    /// The application is referenced: a temporary one would dangle.
    Simulation(const hw::GpuSpec& gpu, const workloads::Application&& app, const DispatchPolicy& policy,
               const std::string& execution = std::string(kDefaultExecutionModel)) = delete;
    Simulation(const hw::GpuSpec& gpu, const workloads::Application&& app, const DispatchPolicy& policy,
               std::unique_ptr<ExecutionModel> execution) = delete;

    /// Adds an observer (called in the order added).
    Simulation& observe(SimObserver& observer);
    /// Memoisation of identical launches on an idle GPU (on by default; Engine::set_memoise).
    Simulation& memoise(bool on);
    /// Skipping repeated full waves of identical fixed-duration blocks (on by default; Engine::set_wave_replay).
    Simulation& replay_waves(bool on);
    /// The execution model that runs (after `auto` was resolved).
    [[nodiscard]] const std::string& execution() const { return execution_; }
    /// Occupancy of each launch.
    [[nodiscard]] const OccupancyTable& occupancy() const { return engine_.occupancy(); }
    SimResult run();

private:
    Simulation(const hw::GpuSpec& gpu, const workloads::Application& app, const DispatchPolicy& policy,
               const std::string& execution, std::unique_ptr<workloads::Application> calibrated);
    std::unique_ptr<workloads::Application> calibrated_;  ///< the calibrated copy the engine runs, if any
    std::string execution_;
    Engine engine_;
};

}  // namespace gpusched::sim
