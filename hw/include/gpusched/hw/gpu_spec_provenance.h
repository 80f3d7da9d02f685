// Where a GPU spec's numbers come from (data with a cited source, or a documented rule) and its stated defaults.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/hw/gpu_spec.h"
#include "gpusched/support/yaml_fields.h"

namespace gpusched::hw {

/// The latency, throughput and overhead keys a spec may give, by their YAML path
/// ("execution.alu_latency_cycles", "memory.dram_latency_cycles", "overheads.kernel_launch_ns", ...),
/// the roofline's included ("execution.fma_flops_per_sm_cycle", "execution.tensor_flops_per_sm_cycle.bf16").
const std::vector<std::string_view>& gpu_number_keys();

/// The value of one of gpu_number_keys() in `gpu` (nullopt: the spec leaves it out). Throws
/// std::out_of_range for a path that is not one of them (a programming error).
std::optional<double> gpu_number(const GpuSpec& gpu, std::string_view key);

/// The rule `gpu.rules` names for `key`, or nullopt when the value is data (or absent).
std::optional<std::string> gpu_rule(const GpuSpec& gpu, std::string_view key);

/// Reads the optional top-level sections `defaults` ({policy: NAME, execution: auto|shared|fixed})
/// and `rules` (a mapping KEY-PATH: "rule text"; every KEY-PATH one of gpu_number_keys() or
/// execution.issue_model, defaults.policy or defaults.execution that the spec gives). Throws InputError naming file:line and key.
void parse_gpu_provenance(YamlFields& top, GpuSpec& spec);

/// Writes `defaults` and `rules` as parse_gpu_provenance reads them (nothing when both are empty).
void write_gpu_provenance(std::ostream& y, const GpuSpec& spec);

}  // namespace gpusched::hw
