// Simulation: the execution model resolved once, then the engine with its observers.
#include "gpusched/sim/simulation.h"

namespace gpusched::sim {

Simulation::Simulation(const hw::GpuSpec& gpu, const workloads::Application& app, const DispatchPolicy& policy,
                       const std::string& execution)
    : execution_(resolve_execution_model(execution, app)), engine_(gpu, app, policy, execution_) {}

Simulation& Simulation::observe(SimObserver& observer) {
    engine_.add_observer(observer);
    return *this;
}

Simulation& Simulation::memoise(bool on) {
    engine_.set_memoise(on);
    return *this;
}

SimResult Simulation::run() { return engine_.run(); }

}  // namespace gpusched::sim
