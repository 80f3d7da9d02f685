// Registry of execution models.
#include "gpusched/sim/execution/execution_model.h"

#include "gpusched/support/key_error.h"
#include "gpusched/sim/execution/shared_execution.h"

namespace gpusched::sim {

void FixedExecution::block_started(const StartedBlock& b, Time, CompletionSink& sink) {
    sink.set_end(b.sm, b.slot, b.start + app_.launches[b.launch].work->duration(b.block));
}

const std::vector<ExecutionModelInfo>& execution_models() {
    static const std::vector<ExecutionModelInfo> models = {
        {"fixed", "each block runs the duration its work model gives, independent of its neighbours"},
        {"shared", "blocks on an SM share its issue slots; each warp has a latency-bound floor (needs per-warp work)"},
    };
    return models;
}

std::string resolve_execution_model(const std::string& name, const workloads::Application& app) {
    if (name != "auto") return name;
    for (const auto& launch : app.launches)
        if (!launch.work || !launch.work->warp_work(0)) return "fixed";
    return "shared";
}

void check_execution_model_name(const std::string& name) {
    if (name == kDefaultExecutionModel) return;
    std::string known(kDefaultExecutionModel);
    for (const auto& m : execution_models()) {
        if (m.name == name) return;
        known += ", " + m.name;
    }
    throw KeyError("exec", "unknown execution model '" + name + "' (known: " + known + ")");
}

std::unique_ptr<ExecutionModel> make_execution_model(const std::string& name, const hw::GpuSpec& gpu,
                                                     const workloads::Application& app) {
    if (name == "fixed") return std::make_unique<FixedExecution>(app);
    if (name == "shared") return std::make_unique<SharedExecution>(gpu, app);
    std::string known;
    for (const auto& m : execution_models()) known += (known.empty() ? "" : ", ") + m.name;
    throw KeyError("exec", "unknown execution model '" + name + "' (known: " + known + ")");
}

}  // namespace gpusched::sim
