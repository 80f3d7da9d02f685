// Reading and writing the roofline keys and the device names of a GPU spec (internal to hw).
#pragma once

#include <ostream>

#include "gpusched/hw/gpu_spec.h"
#include "gpusched/support/yaml_fields.h"

namespace gpusched::hw {

/// The shortest text that reads back as `v` (std::to_chars), as GPU YAML is written.
std::string number_text(double v);

/// `execution.fma_flops_per_sm_cycle`, the mapping `execution.tensor_flops_per_sm_cycle`
/// (DTYPE: number, DTYPE one of tensor_dtypes()) and the mapping `execution.library_efficiency`
/// (FAMILY: fraction in (0, 1], FAMILY one of efficiency_families()); `f` is the execution section. InputError at
/// FILE:LINE naming the key ("execution.tensor_flops_per_sm_cycle.bf16") for a bad value or dtype.
void parse_roofline(YamlFields& f, GpuSpec& spec);

/// Writes the three keys (two-space indent, inside `execution:`) as parse_roofline reads them.
void write_roofline(std::ostream& y, const GpuSpec& spec);

/// The optional top-level list `device_names` (non-empty strings, distinct).
void parse_device_names(YamlFields& top, GpuSpec& spec);

/// Writes `device_names` as parse_device_names reads it (nothing when empty).
void write_device_names(std::ostream& y, const GpuSpec& spec);

}  // namespace gpusched::hw
