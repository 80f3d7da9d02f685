// One summary-only simulation, the same steps as `gpusched simulate`.
#include "gpusched/sweep/simulation.h"

#include <optional>

#include "gpusched/scheduler/registry.h"
#include "gpusched/sim/simulation.h"

namespace gpusched::sweep {

namespace {

/// Asks `stop` every kEvery finished blocks (repeated launches are not counted: they take no time).
class StopCheck final : public sim::SimObserver {
public:
    explicit StopCheck(const std::function<bool()>& stop) : stop_(stop) {}
    [[nodiscard]] bool needs_every_block() const override { return false; }
    void on_block_completed(const sim::BlockRecord&) override {
        if (++blocks_ % kEvery == 0 && stop_()) throw RunStopped();
    }

private:
    static constexpr std::uint64_t kEvery = 4096;
    const std::function<bool()>& stop_;
    std::uint64_t blocks_ = 0;
};

}  // namespace

SimulationOutcome simulate_summary(const hw::GpuSpec& gpu, const workloads::Application& app,
                                   const std::string& policy, const std::string& execution,
                                   const std::function<bool()>& stop) {
    const auto dispatch = scheduler::make_policy(policy);
    sim::Simulation run(gpu, app, *dispatch, execution);
    sim::SummaryCollector summary;
    run.observe(summary);
    std::optional<StopCheck> check;
    if (stop) run.observe(check.emplace(stop));
    run.run();
    return {summary.summary(), run.occupancy()};
}

}  // namespace gpusched::sweep
