// Reading and writing GpuSpec as YAML (schema: docs/gpu-spec.md), with field-by-field validation.
#pragma once

#include <cstddef>
#include <string>

#include "gpusched/hw/gpu_spec.h"

namespace gpusched::hw {

/// Parses and validates a spec from YAML text. `source` names the file in error messages.
/// Throws InputError naming source, line and key for any missing, unknown, mistyped,
/// out-of-range or inconsistent field.
GpuSpec parse_gpu_spec(const std::string& yaml_text, const std::string& source);

/// Reads a YAML file (InputError if unreadable) and parses it.
/// The largest GPU spec file read (a preset is about 10 KiB).
constexpr std::size_t kMaxGpuSpecFileBytes = std::size_t{16} << 20;

GpuSpec load_gpu_spec_file(const std::string& path);

/// Checks cross-field consistency of a spec built in code (parse_gpu_spec calls it too).
/// Throws InputError prefixed with `source`.
void validate_gpu_spec(const GpuSpec& spec, const std::string& source);

/// Writes the spec as YAML in the preset layout; parse_gpu_spec(to_yaml(s)) == s.
std::string to_yaml(const GpuSpec& spec);

/// A preset name (see presets.h) or a path to a YAML file (anything containing '/' or
/// ending in .yaml/.yml). Unknown names are a KeyError about key "gpu" listing the presets.
GpuSpec resolve_gpu(const std::string& name_or_path);

}  // namespace gpusched::hw
