// Matching a trace's deviceProperties entry to a built-in GPU preset.
#include "gpusched/importers/device_preset.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/hw/presets.h"

namespace gpusched::importers {

namespace {
std::set<std::string> words(const std::string& text) {
    std::set<std::string> out;
    std::string word;
    for (const char c : text + " ") {
        if (std::isalnum(static_cast<unsigned char>(c)) != 0) {
            word.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
        } else if (!word.empty()) {
            out.insert(word);
            word.clear();
        }
    }
    return out;
}

bool same_device(const hw::GpuSpec& spec, const TraceDevice& device) {
    return spec.cc_major == device.cc_major && spec.cc_minor == device.cc_minor && spec.sm_count == device.sm_count;
}
}  // namespace

std::string preset_for_device(const TraceDevice& device) {
    for (const std::string& name : hw::preset_names()) {
        const hw::GpuSpec spec = hw::resolve_gpu(name);
        const bool listed = std::find(spec.device_names.begin(), spec.device_names.end(), device.name) != spec.device_names.end();
        if (listed && same_device(spec, device)) return name;
    }
    const std::set<std::string> device_words = words(device.name);
    for (const std::string& name : hw::preset_names()) {
        if (device_words.count(name) == 0) continue;
        if (same_device(hw::resolve_gpu(name), device)) return name;
    }
    return "";
}

}  // namespace gpusched::importers
