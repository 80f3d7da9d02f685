// Lookup of the GPU presets embedded at build time (hw/presets/*.yaml).
#include "gpusched/hw/presets.h"

#include <algorithm>
#include <utility>

namespace gpusched::hw {

namespace detail {
extern const std::vector<std::pair<std::string_view, std::string_view>> embedded_presets;
}

namespace {
/// Display order: by architecture age, then anything else alphabetically.
const std::vector<std::string> kPreferredOrder = {"c1060",   "c2050",     "c2075", "gtx480", "gtx680",    "gtx780", "k20",
                                                  "v100",    "t4",        "a100",  "a100-40gb", "a100-pcie", "l4",
                                                  "l40s",    "rtx4090",   "h100",  "h100-pcie", "h200",      "gh200",
                                                  "b200"};
}  // namespace

const std::vector<std::string>& preset_names() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        for (const auto& name : kPreferredOrder)
            if (preset_yaml(name)) out.push_back(name);
        std::vector<std::string> rest;
        for (const auto& [name, text] : detail::embedded_presets)
            if (std::find(out.begin(), out.end(), name) == out.end()) rest.emplace_back(name);
        std::sort(rest.begin(), rest.end());
        out.insert(out.end(), rest.begin(), rest.end());
        return out;
    }();
    return names;
}

namespace {
bool same_ignoring_case(std::string_view a, std::string_view b) {
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [&](char x, char y) { return lower(x) == lower(y); });
}
}  // namespace

std::optional<std::string> canonical_preset_name(std::string_view name) {
    for (const auto& [preset, text] : detail::embedded_presets)
        if (same_ignoring_case(preset, name)) return std::string(preset);
    return std::nullopt;
}

std::optional<std::string_view> preset_yaml(std::string_view name) {
    for (const auto& [preset, text] : detail::embedded_presets)
        if (same_ignoring_case(preset, name)) return text;
    return std::nullopt;
}

}  // namespace gpusched::hw
