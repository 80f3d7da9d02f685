// Built-in GPU presets: YAML files from hw/presets/ embedded in the binary at build time.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpusched::hw {

/// Preset names in a stable order (oldest architecture first).
const std::vector<std::string>& preset_names();

/// The embedded YAML text of a preset, or nullopt for an unknown name.
std::optional<std::string_view> preset_yaml(std::string_view name);

}  // namespace gpusched::hw
