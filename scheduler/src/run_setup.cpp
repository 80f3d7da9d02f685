// RunSetup: the policy, execution model and rule notes of a run, from what was asked and the GPU's defaults.
#include "gpusched/scheduler/run_setup.h"

#include "gpusched/hw/gpu_overrides.h"
#include "gpusched/scheduler/registry.h"
#include "gpusched/sim/simulation.h"
#include "gpusched/support/input_error.h"
#include "gpusched/support/key_error.h"
#include "gpusched/workloads/ruled_numbers.h"

namespace gpusched::scheduler {

namespace {

/// The policy `name`; when it is the GPU's stated default (not asked for), an unknown name is the
/// GPU file's error, naming defaults.policy.
std::unique_ptr<sim::DispatchPolicy> policy_of(const hw::GpuSpec& gpu, const std::string& name, bool asked) {
    if (asked) return make_policy(name);
    try {
        return make_policy(name);
    } catch (const KeyError& e) {
        throw InputError("GPU '" + gpu.name + "': key 'defaults.policy': " + e.detail());
    }
}

}  // namespace

RunSetup resolve_run_setup(const hw::GpuSpec& gpu, const RunRequest& request) {
    RunSetup setup;
    if (request.before_what_ifs) {
        const std::string rule = hw::sm_count_rule(*request.before_what_ifs, gpu.sm_count);
        if (!rule.empty())
            setup.notes.push_back(gpu.name + " keeps " + rule + " (docs/gpu-spec.md, \"Fewer or more SMs\")");
    }
    setup.policy_name = request.policy.value_or(default_policy());
    if (!request.policy && !gpu.default_policy.empty()) {
        setup.policy_name = gpu.default_policy;
        if (auto note = workloads::ruled_default_note(gpu, "policy", setup.policy_name)) {
            setup.notes.push_back(*note);
            ++setup.ruled_defaults;
        }
    }
    setup.execution = request.execution.value_or(std::string(sim::kDefaultExecutionModel));
    if (!request.execution && !gpu.default_execution.empty()) {
        setup.execution = gpu.default_execution;
        if (auto note = workloads::ruled_default_note(gpu, "execution", setup.execution)) {
            setup.notes.push_back(*note);
            ++setup.ruled_defaults;
        }
    }
    setup.policy = policy_of(gpu, setup.policy_name, request.policy.has_value());
    return setup;
}

std::vector<std::string> run_rule_notes(const RunSetup& setup, const workloads::Application& app,
                                        const hw::GpuSpec& gpu, std::string_view execution) {
    std::vector<std::string> notes = setup.notes;
    for (auto& note : workloads::ruled_number_notes(app, gpu, execution == "shared")) notes.push_back(std::move(note));
    return notes;
}

RunNotes run_rule_note_kinds(const RunSetup& setup, const workloads::Application& app, const hw::GpuSpec& gpu,
                             std::string_view execution) {
    RunNotes out;
    const std::size_t what_ifs = setup.notes.size() - setup.ruled_defaults;
    out.what_if.assign(setup.notes.begin(), setup.notes.begin() + static_cast<std::ptrdiff_t>(what_ifs));
    out.gpu_rules.assign(setup.notes.begin() + static_cast<std::ptrdiff_t>(what_ifs), setup.notes.end());
    for (auto& note : workloads::ruled_number_notes(app, gpu, execution == "shared")) out.gpu_rules.push_back(std::move(note));
    return out;
}

std::string RunNotes::gpu_rules_line(const hw::GpuSpec& gpu) const {
    if (gpu_rules.empty()) return "";
    return "GPU '" + gpu.name + "': " + std::to_string(gpu_rules.size()) + " note" + (gpu_rules.size() == 1 ? "" : "s") +
           " on numbers or defaults this run takes from documented rules, not data (docs/latency-sources.md explains "
           "each rule; --notes all lists them)";
}

}  // namespace gpusched::scheduler
