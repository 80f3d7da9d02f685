// Simulation: the execution model resolved once, then the engine with its observers.
#include "gpusched/sim/simulation.h"

#include "gpusched/sim/execution/measured_calibration.h"

namespace gpusched::sim {

Simulation::Simulation(const hw::GpuSpec& gpu, const workloads::Application& app, const DispatchPolicy& policy,
                       const std::string& execution)
    : Simulation(gpu, app, policy, resolve_execution_model(execution, app),
                 resolve_execution_model(execution, app) == "shared" ? calibrate_measured_launches(app, policy) : nullptr) {}

Simulation::Simulation(const hw::GpuSpec& gpu, const workloads::Application& app, const DispatchPolicy& policy,
                       const std::string& execution, std::unique_ptr<workloads::Application> calibrated)
    : calibrated_(std::move(calibrated)),
      execution_(execution),
      engine_(gpu, calibrated_ ? *calibrated_ : app, policy,
              make_execution_model(execution, gpu, calibrated_ ? *calibrated_ : app)) {}

Simulation::Simulation(const hw::GpuSpec& gpu, const workloads::Application& app, const DispatchPolicy& policy,
                       std::unique_ptr<ExecutionModel> execution)
    : execution_(execution ? execution->name() : std::string()), engine_(gpu, app, policy, std::move(execution)) {}

Simulation& Simulation::observe(SimObserver& observer) {
    engine_.add_observer(observer);
    return *this;
}

Simulation& Simulation::memoise(bool on) {
    engine_.set_memoise(on);
    return *this;
}

Simulation& Simulation::replay_waves(bool on) {
    engine_.set_wave_replay(on);
    return *this;
}

SimResult Simulation::run() { return engine_.run(); }

}  // namespace gpusched::sim
