// GPU variants: YAML key overrides on a preset or file, parsed by the GPU file loader itself.
#include "gpusched/sweep/gpu_variants.h"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/support/input_error.h"
#include "gpusched/hw/presets.h"
#include "gpusched/support/yaml_fields.h"
#include "gpusched/support/text_file.h"

namespace gpusched::sweep {

namespace {

/// Every key path the presets use: top-level scalars and section.key pairs.
const std::map<std::string, std::vector<std::string>>& preset_key_catalog() {
    static const auto catalog = [] {
        std::map<std::string, std::set<std::string>> paths;
        for (const auto& name : hw::preset_names()) {
            const YAML::Node root = YAML::Load(std::string(*hw::preset_yaml(name)));
            for (auto it = root.begin(); it != root.end(); ++it) {
                const std::string key = it->first.Scalar();
                if (it->second.IsMap()) {
                    for (auto sub = it->second.begin(); sub != it->second.end(); ++sub)
                        paths[sub->first.Scalar()].insert(key + "." + sub->first.Scalar());
                } else {
                    paths[key].insert(key);
                }
            }
        }
        std::map<std::string, std::vector<std::string>> out;
        for (auto& [leaf, set] : paths) out[leaf] = std::vector<std::string>(set.begin(), set.end());
        return out;
    }();
    return catalog;
}

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

std::optional<std::string> find_gpu_key(const std::string& name) {
    const auto& catalog = preset_key_catalog();
    const auto it = catalog.find(name);
    if (it == catalog.end()) return std::nullopt;
    if (it->second.size() > 1) {
        std::string list;
        for (const auto& p : it->second) list += (list.empty() ? "" : ", ") + p;
        throw InputError("GPU key '" + name + "' is in several sections (" + list + "): write the full path");
    }
    return it->second.front();
}

hw::GpuSpec gpu_with_overrides(const std::string& base_yaml, const std::string& label, const GpuOverrides& overrides) {
    if (overrides.empty()) return hw::parse_gpu_spec(base_yaml, label);
    YAML::Node root = parse_yaml_document(base_yaml, label);
    if (!root.IsMap()) return hw::parse_gpu_spec(base_yaml, label);
    bool sets_sm_count = false, sets_sm_order = false;
    for (const auto& [path, value] : overrides) {
        const auto dot = path.find('.');
        if (dot == std::string::npos) {
            root[path] = value;
        } else {
            const std::string section = path.substr(0, dot);
            const std::string key = path.substr(dot + 1);
            if (key.empty() || key.find('.') != std::string::npos || section.empty())
                throw InputError("GPU key '" + path + "': expected KEY or SECTION.KEY (docs/gpu-spec.md)");
            if (root[section] && !root[section].IsMap())
                throw InputError("GPU key '" + path + "': '" + section + "' is not a section");
            root[section][key] = value;
        }
        sets_sm_count = sets_sm_count || path == "sm_count";
        sets_sm_order = sets_sm_order || path == "topology.sm_order";
    }
    if (sets_sm_count && !sets_sm_order && root["topology"] && root["topology"].IsMap()) {
        root["topology"].remove("sm_order");
        root["topology"].remove("dispatch_walk");
        root["topology"].remove("completion_sweep");
        if (root["topology"].size() == 0) root.remove("topology");
    }
    YAML::Emitter out;
    out << root;
    return hw::parse_gpu_spec(std::string(out.c_str()) + "\n", label);
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
