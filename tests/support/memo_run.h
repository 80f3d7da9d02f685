// A run with or without launch memoisation: its JSON summary and how many launches were repeated (memoisation tests).
#pragma once

#include <sstream>
#include <string>

#include "gpusched/scheduler/registry.h"
#include "gpusched/sim/engine.h"
#include "gpusched/sim/output/summary_collector.h"

namespace gpusched::test {

/// Counts memoised launches; needs no block, so it lets the engine memoise.
class RepeatCounter final : public sim::SimObserver {
public:
    int repeated = 0;
    [[nodiscard]] bool needs_every_block() const override { return false; }
    void on_launch_repeated(const sim::RepeatedLaunch&) override { ++repeated; }
};

struct MemoOutcome {
    std::string json;  ///< sim::write_summary_json of the run
    int repeated = 0;
};

/// `app` on `gpu` with `policy` and `execution`, memoising launches or not.
inline MemoOutcome run_memoised(const hw::GpuSpec& gpu, const workloads::Application& app, const std::string& policy,
                                const std::string& execution, bool memoise) {
    auto p = scheduler::make_policy(policy);
    sim::Engine engine(gpu, app, *p, execution);
    engine.set_memoise(memoise);
    sim::SummaryCollector summary;
    RepeatCounter counter;
    engine.add_observer(summary);
    engine.add_observer(counter);
    engine.run();
    std::ostringstream json;
    sim::write_summary_json(json, summary.summary());
    return {json.str(), counter.repeated};
}

}  // namespace gpusched::test
