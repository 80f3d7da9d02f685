// GPU variants: a preset or GPU file with some YAML keys overridden, validated like a GPU file.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "gpusched/hw/gpu_overrides.h"
#include "gpusched/hw/gpu_spec.h"

namespace gpusched::sweep {

/// (dotted key path, value) pairs, e.g. {"limits.max_blocks_per_sm", "24"}.
using GpuOverrides = hw::GpuOverrides;

/// The YAML text of a `gpu` value: a preset name, or a file path (relative paths start at
/// base_dir). InputError for an unknown preset (listing them) or an unreadable file.
std::string gpu_base_yaml(const std::string& value, const std::string& base_dir);

/// The dotted path of a bare GPU key ("sm_count" -> "sm_count", "max_blocks_per_sm" ->
/// "limits.max_blocks_per_sm"), looked up in the keys the presets use; nullopt when no preset
/// has it. InputError when the name is in several sections (the message lists the paths).
/// (hw::find_gpu_key.)
std::optional<std::string> find_gpu_key(const std::string& name);

/// The base YAML with each override set (sections created as needed), parsed and validated
/// by hw::parse_gpu_spec, so errors are those of a GPU file ("LABEL:LINE: key 'sm_count':
/// expected an integer in [1, 100000], got '0'"); cross-field errors are
/// hw::InconsistentSpecError. Overriding sm_count keeps the base GPU's sm_order, dispatch_walk
/// and completion_sweep consistent by the one rule of hw::with_sm_count (docs/gpu-spec.md, "Fewer
/// or more SMs"); this is hw::gpu_with_overrides.
hw::GpuSpec gpu_with_overrides(const std::string& base_yaml, const std::string& label, const GpuOverrides& overrides);

/// Memoises GPU variants by (gpu value, overrides): one per worker thread. Either a spec
/// or the InputError message it gave.
class GpuVariantCache {
public:
    explicit GpuVariantCache(std::string base_dir) : base_dir_(std::move(base_dir)) {}
    /// The spec, or throws InputError (or InconsistentSpecError) with the same message each time.
    const hw::GpuSpec& get(const std::string& gpu, const GpuOverrides& overrides);

private:
    struct Entry {
        std::optional<hw::GpuSpec> spec;
        std::string error;
        bool inconsistent = false;
    };
    std::string base_dir_;
    std::map<std::string, std::string> base_yaml_;
    std::map<std::string, Entry> variants_;
};

}  // namespace gpusched::sweep
