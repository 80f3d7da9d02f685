// RunSetup: the one place a run's dispatch policy, execution model and rule notes are resolved from the GPU's defaults and the keys asked for.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/hw/gpu_spec.h"
#include "gpusched/sim/dispatch_policy.h"
#include "gpusched/workloads/application.h"

namespace gpusched::scheduler {

/// What a run asks for; each key left out falls back to the GPU's `defaults`, then to the built-in default.
struct RunRequest {
    std::optional<std::string> policy{};     ///< key "policy": a registry name
    std::optional<std::string> execution{};  ///< key "exec": auto, fixed or shared (checked by whoever runs it)
    /// The GPU before its what-ifs (sm_count changed): when given and its SM count differs, a note
    /// says which SMs the run keeps (hw::sm_count_rule).
    const hw::GpuSpec* before_what_ifs = nullptr;
};

/// A run's set-up: the policy made from the registry, the execution model's name, and the notes of
/// the GPU rules (not data) the set-up used.
struct RunSetup {
    std::unique_ptr<sim::DispatchPolicy> policy;
    std::string policy_name;  ///< the asked policy, else the GPU's defaults.policy, else default_policy()
    std::string execution;    ///< the asked model, else the GPU's defaults.execution, else auto (not yet resolved)
    /// In this order: which SMs a changed sm_count keeps; the GPU default policy, then execution
    /// model, the run takes when `gpu.rules` gives it by a rule (workloads::ruled_default_note).
    std::vector<std::string> notes;
    /// How many of `notes` (at their end) are the GPU's ruled defaults.
    std::size_t ruled_defaults = 0;
};

/// A run's rule notes in two kinds: what the what-ifs changed (which SMs a changed sm_count keeps),
/// and the GPU's numbers and defaults that rest on a documented rule rather than data.
struct RunNotes {
    std::vector<std::string> what_if;
    std::vector<std::string> gpu_rules;
    /// One line for the GPU rules: "GPU 'c2075': 7 of the numbers and defaults this run uses are rules,
    /// not data (see docs/latency-sources.md)"; "" when there are none.
    [[nodiscard]] std::string gpu_rules_line(const hw::GpuSpec& gpu) const;
};

/// The set-up of a run on `gpu`. An unknown asked policy is the registry's KeyError about key
/// "policy"; an unknown defaults.policy is the GPU's InputError ("GPU 'x': key 'defaults.policy': ...").
RunSetup resolve_run_setup(const hw::GpuSpec& gpu, const RunRequest& request);

/// Every rule note of a run of `app` on `gpu` set up as `setup`, in the order summaries print
/// them: the set-up's, then the rules the work reads (workloads::ruled_number_notes) under the
/// resolved execution model `execution` (sim::Simulation::execution()).
std::vector<std::string> run_rule_notes(const RunSetup& setup, const workloads::Application& app,
                                        const hw::GpuSpec& gpu, std::string_view execution);

/// The same notes, by kind.
RunNotes run_rule_note_kinds(const RunSetup& setup, const workloads::Application& app, const hw::GpuSpec& gpu,
                             std::string_view execution);

}  // namespace gpusched::scheduler
