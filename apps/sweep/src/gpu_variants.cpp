// GPU variants: YAML key overrides on a preset or file, parsed by the GPU file loader itself.
#include "gpusched/sweep/gpu_variants.h"

#include <filesystem>

#include "gpusched/hw/gpu_overrides.h"
#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/support/input_error.h"
#include "gpusched/hw/presets.h"
#include "gpusched/support/text_file.h"

namespace gpusched::sweep {

namespace {

bool looks_like_path(const std::string& value) {
    return value.find('/') != std::string::npos || value.ends_with(".yaml") || value.ends_with(".yml");
}

}  // namespace

std::string gpu_base_yaml(const std::string& value, const std::string& base_dir) {
    if (auto yaml = hw::preset_yaml(value)) return std::string(*yaml);
    if (!looks_like_path(value)) {
        std::string known;
        for (const auto& name : hw::preset_names()) known += (known.empty() ? "" : ", ") + name;
        throw InputError("unknown GPU '" + value + "' (presets: " + known + "; or a path to a .yaml file)");
    }
    std::filesystem::path path(value);
    if (path.is_relative() && !base_dir.empty()) path = std::filesystem::path(base_dir) / path;
    return read_text_file(path.string(), "GPU spec file", hw::kMaxGpuSpecFileBytes);
}

std::optional<std::string> find_gpu_key(const std::string& name) { return hw::find_gpu_key(name); }

hw::GpuSpec gpu_with_overrides(const std::string& base_yaml, const std::string& label, const GpuOverrides& overrides) {
    return hw::gpu_with_overrides(base_yaml, label, overrides);
}

const hw::GpuSpec& GpuVariantCache::get(const std::string& gpu, const GpuOverrides& overrides) {
    std::string key = gpu;
    for (const auto& [path, value] : overrides) key += "\n" + path + "=" + value;
    auto it = variants_.find(key);
    if (it == variants_.end()) {
        Entry entry;
        try {
            auto base = base_yaml_.find(gpu);
            if (base == base_yaml_.end()) base = base_yaml_.emplace(gpu, gpu_base_yaml(gpu, base_dir_)).first;
            std::string label = gpu;
            for (const auto& [path, value] : overrides) label += "+" + path + "=" + value;
            entry.spec = gpu_with_overrides(base->second, label, overrides);
        } catch (const InconsistentSpecError& e) {
            entry.error = e.what();
            entry.inconsistent = true;
        } catch (const InputError& e) {
            entry.error = e.what();
        }
        it = variants_.emplace(std::move(key), std::move(entry)).first;
    }
    if (it->second.spec) return *it->second.spec;
    if (it->second.inconsistent) throw InconsistentSpecError(it->second.error);
    throw InputError(it->second.error);
}

}  // namespace gpusched::sweep
