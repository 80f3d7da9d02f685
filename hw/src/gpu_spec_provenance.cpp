// GPU spec provenance: the table of number keys, the `rules` and `defaults` sections.
#include "gpusched/hw/gpu_spec_provenance.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "yaml_quoted.h"
#include "gpusched/hw/roofline.h"
#include "gpusched/support/input_error.h"

namespace gpusched::hw {

namespace {

using NumberField = std::optional<double> GpuSpec::*;

const std::vector<std::pair<std::string_view, NumberField>>& number_fields() {
    static const std::vector<std::pair<std::string_view, NumberField>> fields = {
        {"execution.clock_mhz", &GpuSpec::clock_mhz},
        {"execution.issue_fair_warps", &GpuSpec::issue_fair_warps},
        {"execution.fma_flops_per_sm_cycle", &GpuSpec::fma_flops_per_sm_cycle},
        {"execution.tensor_clock_mhz", &GpuSpec::tensor_clock_mhz},
        {"execution.tensor_power_sms", &GpuSpec::tensor_power_sms},
        {"execution.l1_wavefronts_per_cycle", &GpuSpec::l1_wavefronts_per_cycle},
        {"execution.alu_latency_cycles", &GpuSpec::alu_latency_cycles},
        {"execution.fma_latency_cycles", &GpuSpec::fma_latency_cycles},
        {"execution.sfu_latency_cycles", &GpuSpec::sfu_latency_cycles},
        {"execution.conversion_latency_cycles", &GpuSpec::conversion_latency_cycles},
        {"execution.shared_memory_latency_cycles", &GpuSpec::shared_memory_latency_cycles},
        {"execution.barrier_cycles", &GpuSpec::barrier_cycles},
        {"execution.barrier_cycles_per_warp", &GpuSpec::barrier_cycles_per_warp},
        {"memory.dram_bandwidth_gbps", &GpuSpec::dram_bandwidth_gbps},
        {"memory.l2_bandwidth_gbps", &GpuSpec::l2_bandwidth_gbps},
        {"memory.l1_hit_latency_cycles", &GpuSpec::l1_hit_latency_cycles},
        {"memory.l2_hit_latency_cycles", &GpuSpec::l2_hit_latency_cycles},
        {"memory.dram_latency_cycles", &GpuSpec::dram_latency_cycles},
        {"memory.tile_fill_extra_cycles", &GpuSpec::tile_fill_extra_cycles},
        {"host_link.bandwidth_gbps", &GpuSpec::host_link_gbps},
        {"host_link.pageable_bandwidth_gbps", &GpuSpec::host_link_pageable_gbps},
        {"host_link.latency_ns", &GpuSpec::host_link_latency_ns},
        {"overheads.kernel_launch_ns", &GpuSpec::kernel_launch_ns},
        {"overheads.block_dispatch_latency_ns", &GpuSpec::block_dispatch_latency_ns},
        {"overheads.block_dispatch_interval_ns", &GpuSpec::block_dispatch_interval_ns},
        {"overheads.sm_block_launch_ns", &GpuSpec::sm_block_launch_ns},
        {"overheads.sm_warp_launch_ns", &GpuSpec::sm_warp_launch_ns},
        {"overheads.block_completion_interval_ns", &GpuSpec::block_completion_interval_ns},
        {"overheads.host_launch_interval_ns", &GpuSpec::host_launch_interval_ns},
        {"overheads.graph_kernel_launch_ns", &GpuSpec::graph_kernel_launch_ns},
        {"overheads.graph_launch_per_pending_kernel_ns", &GpuSpec::graph_launch_per_pending_kernel_ns},
        {"overheads.kernel_start_interval_ns", &GpuSpec::kernel_start_interval_ns},
    };
    return fields;
}

/// PREFIX + NAME for each of `names`, in their order.
std::vector<std::string> prefixed(std::string_view prefix, const std::vector<std::string_view>& names) {
    std::vector<std::string> out;
    for (const auto name : names) out.push_back(std::string(prefix) + std::string(name));
    return out;
}

/// "execution.tensor_flops_per_sm_cycle.DTYPE" for each of tensor_dtypes(), in their order.
const std::vector<std::string>& tensor_keys() {
    static const std::vector<std::string> keys = prefixed("execution.tensor_flops_per_sm_cycle.", tensor_dtypes());
    return keys;
}

/// "execution.library_efficiency.FAMILY" for each of efficiency_families(), in their order.
const std::vector<std::string>& efficiency_keys() {
    static const std::vector<std::string> keys = prefixed("execution.library_efficiency.", efficiency_families());
    return keys;
}

/// The name `key` ends in when it is one of `keys` (made by prefixed from `names`), else nullopt.
std::optional<std::string_view> name_of(std::string_view key, const std::vector<std::string>& keys,
                                        const std::vector<std::string_view>& names) {
    for (std::size_t i = 0; i < keys.size(); ++i)
        if (key == keys[i]) return names[i];
    return std::nullopt;
}

/// The dtype of a tensor key ("execution.tensor_flops_per_sm_cycle.bf16" -> "bf16"), or nullopt.
std::optional<std::string_view> tensor_key_dtype(std::string_view key) { return name_of(key, tensor_keys(), tensor_dtypes()); }

/// The family of an efficiency key ("execution.library_efficiency.gemm" -> "gemm"), or nullopt.
std::optional<std::string_view> efficiency_key_family(std::string_view key) {
    return name_of(key, efficiency_keys(), efficiency_families());
}

constexpr std::string_view kDefaultPolicyKey = "defaults.policy";
constexpr std::string_view kDefaultExecutionKey = "defaults.execution";
constexpr std::string_view kIssueModelKey = "execution.issue_model";
constexpr std::string_view kL1ModelKey = "execution.l1_model";

/// Whether `key` is a path the spec gives a value for (a number key or a stated default).
bool spec_gives(const GpuSpec& spec, std::string_view key) {
    if (key == kDefaultPolicyKey) return !spec.default_policy.empty();
    if (key == kDefaultExecutionKey) return !spec.default_execution.empty();
    if (key == kIssueModelKey || key == kL1ModelKey) return true;
    if (const auto dtype = tensor_key_dtype(key)) return tensor_flops_per_sm_cycle(spec, *dtype).has_value();
    if (const auto family = efficiency_key_family(key)) return library_efficiency(spec, *family).has_value();
    for (const auto& [path, field] : number_fields())
        if (path == key) return (spec.*field).has_value();
    return false;
}

bool known_path(std::string_view key) {
    if (key == kDefaultPolicyKey || key == kDefaultExecutionKey || key == kIssueModelKey || key == kL1ModelKey)
        return true;
    const auto& keys = gpu_number_keys();
    return std::find(keys.begin(), keys.end(), key) != keys.end();
}


}  // namespace

const std::vector<std::string_view>& gpu_number_keys() {
    static const std::vector<std::string_view> keys = [] {
        std::vector<std::string_view> out;
        for (const auto& [path, field] : number_fields()) out.push_back(path);
        for (const auto& path : tensor_keys()) out.push_back(path);
        for (const auto& path : efficiency_keys()) out.push_back(path);
        return out;
    }();
    return keys;
}

std::optional<double> gpu_number(const GpuSpec& gpu, std::string_view key) {
    for (const auto& [path, field] : number_fields())
        if (path == key) return gpu.*field;
    if (const auto dtype = tensor_key_dtype(key)) return tensor_flops_per_sm_cycle(gpu, *dtype);
    if (const auto family = efficiency_key_family(key)) return library_efficiency(gpu, *family);
    throw std::out_of_range("gpu_number: '" + std::string(key) + "' is not a GPU number key");
}

std::optional<std::string> gpu_rule(const GpuSpec& gpu, std::string_view key) {
    const auto it = gpu.rules.find(std::string(key));
    if (it == gpu.rules.end()) return std::nullopt;
    return it->second;
}

void parse_gpu_provenance(YamlFields& top, GpuSpec& spec) {
    if (auto node = top.optional_child("defaults")) {
        YamlFields f(*node, top.source(), "defaults");
        if (auto policy = f.optional_string("policy")) {
            for (char c : *policy)
                if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_'))
                    f.fail("policy", "expected a policy name (gpusched list policies), got '" + *policy + "'");
            if (policy->empty()) f.fail("policy", "expected a policy name (gpusched list policies), got ''");
            spec.default_policy = *policy;
        }
        if (f.has("execution")) spec.default_execution = f.choice("execution", {"auto", "shared", "fixed"});
        f.finish();
    }
    if (auto node = top.optional_child("rules")) {
        if (!node->IsMap()) top.fail("rules", "expected a mapping KEY: \"rule\", e.g. execution.fma_latency_cycles: \"R2 FMA = ALU\"");
        for (auto it = node->begin(); it != node->end(); ++it) {
            const std::string where = yaml_location(it->first, top.source());
            const std::string key = it->first.IsScalar() ? it->first.Scalar() : std::string();
            if (!known_path(key))
                throw InputError(where + ": key 'rules': '" + key +
                                 "' is not a GPU number key (e.g. execution.alu_latency_cycles), execution.issue_model, "
                                 "execution.l1_model, "
                                 "defaults.policy or defaults.execution");
            if (!spec_gives(spec, key))
                throw InputError(where + ": key 'rules." + key + "': the spec gives no value for " + key +
                                 " (a rule names how a value given in the spec was obtained)");
            if (!it->second.IsScalar() || it->second.Scalar().empty())
                throw InputError(where + ": key 'rules." + key + "': expected the rule as text, e.g. \"R2 FMA = ALU\"");
            spec.rules[key] = it->second.Scalar();
        }
    }
}

void write_gpu_provenance(std::ostream& y, const GpuSpec& spec) {
    if (!spec.default_policy.empty() || !spec.default_execution.empty()) {
        y << "defaults:\n";
        if (!spec.default_policy.empty()) y << "  policy: " << spec.default_policy << "\n";
        if (!spec.default_execution.empty()) y << "  execution: " << spec.default_execution << "\n";
    }
    if (!spec.rules.empty()) {
        y << "rules:\n";
        for (const auto& [key, rule] : spec.rules) y << "  " << key << ": " << yaml_quoted(rule) << "\n";
    }
}

}  // namespace gpusched::hw
