// Built-in GPU presets: YAML files from hw/presets/ embedded in the binary at build time.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpusched::hw {

/// Preset names in a stable order (oldest architecture first).
const std::vector<std::string>& preset_names();

/// The canonical spelling of a preset name matched without regard to ASCII case ("H100" -> "h100"),
/// or nullopt for an unknown name. Every lookup of a preset by name goes through it.
std::optional<std::string> canonical_preset_name(std::string_view name);

/// The embedded YAML text of a preset (name matched without regard to case), or nullopt for an unknown name.
std::optional<std::string_view> preset_yaml(std::string_view name);

}  // namespace gpusched::hw
