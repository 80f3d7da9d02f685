// GPU what-ifs: a spec with some YAML keys set (--set KEY=VALUE, --sms K), its measured SM topology kept consistent.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gpusched/hw/gpu_spec.h"

namespace gpusched::hw {

/// (key path, value) pairs, e.g. {"limits.max_blocks_per_sm", "24"}: the path is KEY (top level),
/// SECTION.KEY or SECTION.MAP.KEY ("execution.tensor_flops_per_sm_cycle.bf16"), as in a GPU file
/// (docs/gpu-spec.md).
using GpuOverrides = std::vector<std::pair<std::string, std::string>>;

/// The dotted path of a bare GPU key ("sm_count" -> "sm_count", "max_blocks_per_sm" ->
/// "limits.max_blocks_per_sm"), looked up in the keys the presets use; nullopt when no preset
/// has it. InputError when the name is in several sections (the message lists the paths).
std::optional<std::string> find_gpu_key(const std::string& name);

/// The one rule for a GPU with another SM count and a measured topology (docs/gpu-spec.md,
/// "Fewer or more SMs"): fewer SMs keep the first sm_count SMs of `topology.partition_order` when it
/// lists that many (the SMs a green context gets, renumbered 0..sm_count-1 in id order; every list
/// below renumbered likewise), else SMs 0..sm_count-1 (the lowest ids of the spec's
/// numbering; on the h100 preset whole SM-id ranges of the walk's groups, 16 SMs each, when
/// sm_count is a multiple of 16); `topology.sm_order`, the dispatch walk's lead, rows and groups
/// and the completion sweep's visits keep their order with the other SMs removed (empty lists
/// dropped; start_row and lead_start move to the first kept row or lead SM at or after them; a
/// walk left without rows walks its lead as its one row). More SMs append the new ids
/// sm_count_old..sm_count-1, in id order, to `sm_order`, as one more row and one more group of the
/// walk, and as one more sweep visit that takes the visits' mean releases per SM times its SMs.
/// Everything else is unchanged. `spec` must be valid; the result is (checked: std::logic_error
/// otherwise, a bug).
GpuSpec with_sm_count(const GpuSpec& spec, int sm_count);

/// Which SMs with_sm_count(spec, sm_count) keeps, in words for summaries: "SMs 0-3, 16-19, 32-35, 48-51
/// (the first 16 of topology.partition_order, the SMs a green context of 16 SMs gets), renumbered
/// 0..15", "SMs 0-53 (the lowest ids; no measured partition of 54 SMs)", or "SMs 0..131 and 8 new
/// ones"; "" when sm_count is spec's.
std::string sm_count_rule(const GpuSpec& spec, int sm_count);

/// The base YAML with each override set (sections created as needed), parsed and validated by
/// hw::parse_gpu_spec, so errors are those of a GPU file ("LABEL:LINE: key 'sm_count': expected
/// an integer in [1, 100000], got '0'"); cross-field errors are InconsistentSpecError. Overriding
/// sm_count keeps the base GPU's topology consistent by with_sm_count (sm_order, dispatch_walk and
/// completion_sweep that the overrides do not set themselves).
GpuSpec gpu_with_overrides(const std::string& base_yaml, const std::string& label, const GpuOverrides& overrides);

/// "h100 (sm_count=64, limits.max_blocks_per_sm=16)": the name summaries show for a modified GPU;
/// `name` itself without overrides.
std::string overridden_gpu_name(const std::string& name, const GpuOverrides& overrides);

/// "KEY=VALUE" (a --set value) as a (path, value) override: a bare key is looked up with
/// find_gpu_key. InputError naming `flag` and the text when it has no '=', an empty side, or a
/// key no preset uses and that is not SECTION.KEY.
std::pair<std::string, std::string> parse_gpu_override(const std::string& text, const std::string& flag);

/// resolve_gpu(name_or_path) with `overrides` applied (gpu_with_overrides) and named by
/// overridden_gpu_name. `written[i]` is how override i was given ("--set sm_count=0", "--sms 0"):
/// a bad value is an InputError naming it instead of a line of the edited YAML ("--sms 0: key
/// 'sm_count': expected an integer in [1, 100000], got '0'"); a spec the overrides make
/// inconsistent names all of them.
GpuSpec resolve_gpu_with_overrides(const std::string& name_or_path, const GpuOverrides& overrides,
                                   const std::vector<std::string>& written);

}  // namespace gpusched::hw
