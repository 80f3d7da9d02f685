// The lab's WebAssembly entry point: one JSON request (GPU preset, what-ifs, policy, workload YAML) in, the run's JSON summary and blocks out.
#include <algorithm>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpusched/hw/gpu_overrides.h"
#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/hw/presets.h"
#include "gpusched/scheduler/registry.h"
#include "gpusched/scheduler/run_setup.h"
#include "gpusched/sim/output/block_recorder.h"
#include "gpusched/sim/output/run_explanation.h"
#include "gpusched/sim/output/summary_collector.h"
#include "gpusched/sim/output/time_account.h"
#include "gpusched/sim/simulation.h"
#include "gpusched/support/input_error.h"
#include "gpusched/workloads/workload_file.h"

namespace gpusched::lab {

namespace {

/// What the page asks for; the same run as `gpusched simulate --gpu GPU [--sms K]
/// [--set max_blocks_per_sm=B] [--policy P] --workload FILE --json` with FILE holding `workload`.
struct LabRequest {
    std::string gpu;
    std::optional<std::string> sms;
    std::optional<std::string> max_blocks_per_sm;
    std::optional<std::string> policy;
    std::string workload;
    std::size_t max_blocks = 20'000;
};

std::optional<std::string> optional_text(const nlohmann::json& request, const char* key) {
    if (!request.contains(key) || request[key].is_null()) return std::nullopt;
    const auto& value = request[key];
    if (value.is_string()) return value.get<std::string>();
    if (value.is_number_integer()) return std::to_string(value.get<std::int64_t>());
    throw InputError(std::string("request key '") + key + "': expected a string or an integer");
}

LabRequest parse_request(const std::string& text) {
    const auto request = nlohmann::json::parse(text, nullptr, false);
    if (request.is_discarded() || !request.is_object()) throw InputError("request: expected one JSON object");
    LabRequest out;
    out.gpu = optional_text(request, "gpu").value_or("h100");
    const auto& presets = hw::preset_names();
    if (std::find(presets.begin(), presets.end(), out.gpu) == presets.end())
        throw InputError("gpu '" + out.gpu + "': the lab runs the built-in presets only");
    out.sms = optional_text(request, "sms");
    out.max_blocks_per_sm = optional_text(request, "max_blocks_per_sm");
    out.policy = optional_text(request, "policy");
    out.workload = optional_text(request, "workload").value_or("");
    if (const auto cap = optional_text(request, "max_blocks")) out.max_blocks = std::stoul(*cap);
    return out;
}

/// The GPU with the what-ifs applied, as `--sms K --set max_blocks_per_sm=B` applies them.
hw::GpuSpec resolve_gpu(const LabRequest& request) {
    hw::GpuOverrides overrides;
    std::vector<std::string> written;
    if (request.sms) {
        overrides.emplace_back("sm_count", *request.sms);
        written.push_back("--sms " + *request.sms);
    }
    if (request.max_blocks_per_sm) {
        const std::string text = "max_blocks_per_sm=" + *request.max_blocks_per_sm;
        overrides.push_back(hw::parse_gpu_override(text, "--set"));
        written.push_back("--set " + text);
    }
    return hw::resolve_gpu_with_overrides(request.gpu, overrides, written);
}

/// Runs the request as `gpusched simulate` would (scheduler::resolve_run_setup: the GPU's default
/// policy and execution model, the same notes) and writes
/// {"ok":true,"summary":...,"occupancy":[...],"blocks":[...]}.
std::string run_request(const LabRequest& request) {
    const hw::GpuSpec gpu = resolve_gpu(request);
    const hw::GpuSpec before_what_ifs = hw::resolve_gpu(request.gpu);
    const scheduler::RunSetup setup =
        scheduler::resolve_run_setup(gpu, {.policy = request.policy, .before_what_ifs = &before_what_ifs});
    const workloads::Application app = workloads::parse_workload(request.workload, "workload");
    sim::Simulation run(gpu, app, *setup.policy, setup.execution);
    const std::vector<std::string> notes = scheduler::run_rule_notes(setup, app, gpu, run.execution());
    sim::SummaryCollector summary;
    sim::BlockRecorder recorder(request.max_blocks);
    sim::TimeAccountCollector account(setup.policy->name() == "min");  // min dispatches warps, as in simulate
    run.observe(summary).observe(recorder).observe(account);
    run.run();
    sim::RunSummary result = summary.summary();
    result.notes.insert(result.notes.begin(), notes.begin(), notes.end());
    result.account = account.account();  // what `simulate --explain --json` prints as time_account
    std::ostringstream explanation;
    sim::write_explanation(explanation, {gpu, app, run.occupancy(), result, account.account()});

    std::ostringstream out;
    out << "{\"ok\":true,\"summary\":";
    sim::write_summary_json(out, result);
    nlohmann::json occupancy = nlohmann::json::array();
    const std::vector<hw::OccupancyResult> occupancies = run.occupancy();
    for (const auto& o : occupancies) {
        nlohmann::json limited = nlohmann::json::array();
        for (const auto limiter : o.limited_by) limited.push_back(hw::to_string(limiter));
        const auto limit = [](int value) { return value == hw::OccupancyResult::unlimited ? nlohmann::json() : nlohmann::json(value); };
        occupancy.push_back({{"blocks_per_sm", o.blocks_per_sm},
                             {"warps_per_block", o.warps_per_block},
                             {"warps_per_sm", o.warps_per_sm},
                             {"occupancy", o.occupancy},
                             {"limited_by", limited},
                             {"limit_warps", limit(o.limit_warps)},
                             {"limit_registers", limit(o.limit_registers)},
                             {"limit_shared_memory", limit(o.limit_shared_memory)},
                             {"limit_blocks", limit(o.limit_blocks)},
                             {"limit_barriers", limit(o.limit_barriers)},
                             {"registers_per_block", o.registers_per_block},
                             {"shared_bytes_per_block", o.shared_bytes_per_block},
                             {"shared_bytes_per_sm", o.shared_bytes_per_sm}});
    }
    out << ",\"explanation\":" << nlohmann::json(explanation.str()).dump();
    out << ",\"max_warps_per_sm\":" << gpu.max_warps_per_sm << ",\"occupancy\":" << occupancy.dump()
        << ",\"blocks_total\":" << recorder.blocks_seen() << ",\"blocks\":[";
    // One block as [launch, sm, slot, start_ps, end_ps].
    bool first = true;
    for (const auto& b : recorder.blocks()) {
        out << (first ? "" : ",") << '[' << b.launch << ',' << b.sm << ',' << b.slot << ',' << b.start << ',' << b.end
            << ']';
        first = false;
    }
    out << "]}";
    return out.str();
}

/// The presets (with the limits the page's sliders need) and the dispatch policies.
std::string catalogue() {
    nlohmann::json presets = nlohmann::json::array();
    for (const auto& name : hw::preset_names()) {
        const hw::GpuSpec gpu = hw::resolve_gpu(name);
        presets.push_back({{"name", name},
                           {"full_name", gpu.full_name},
                           {"sm_count", gpu.sm_count},
                           {"max_blocks_per_sm", gpu.max_blocks_per_sm},
                           {"max_threads_per_block", gpu.max_threads_per_block},
                           {"max_registers_per_thread", gpu.max_registers_per_thread},
                           {"shared_memory_per_block_optin", gpu.shared_memory_per_block_optin},
                           {"default_policy", gpu.default_policy}});
    }
    nlohmann::json policies = nlohmann::json::array();
    for (const auto& policy : scheduler::policies())
        policies.push_back({{"name", policy.name}, {"description", policy.description}});
    return nlohmann::json{{"presets", presets}, {"policies", policies}}.dump();
}

}  // namespace

}  // namespace gpusched::lab

/// The GPU presets and dispatch policies the page offers, as JSON.
extern "C" const char* lab_catalogue() {
    static const std::string answer = gpusched::lab::catalogue();
    return answer.c_str();
}

/// The page's one call: `request` is a JSON object (see LabRequest); the answer, valid until the
/// next call, is {"ok":true,...} or {"ok":false,"error":"MESSAGE"} for bad input.
extern "C" const char* lab_run(const char* request) {
    static std::string answer;
    try {
        answer = gpusched::lab::run_request(gpusched::lab::parse_request(request));
    } catch (const std::exception& e) {
        answer = nlohmann::json{{"ok", false}, {"error", e.what()}}.dump();
    }
    return answer.c_str();
}
