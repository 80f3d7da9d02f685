// GPU what-ifs: YAML key overrides on a preset or file, and the rule that keeps a measured SM topology consistent.
#include "gpusched/hw/gpu_overrides.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include <yaml-cpp/yaml.h>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/hw/presets.h"
#include "gpusched/support/input_error.h"
#include "gpusched/support/text_file.h"
#include "gpusched/support/yaml_fields.h"

namespace gpusched::hw {

namespace {

/// Every key path the presets use: top-level scalars and section.key pairs, by leaf name.
const std::map<std::string, std::vector<std::string>>& preset_key_catalog() {
    static const auto catalog = [] {
        std::map<std::string, std::set<std::string>> paths;
        for (const auto& name : preset_names()) {
            const YAML::Node root = YAML::Load(std::string(*preset_yaml(name)));
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

/// The new id of each SM of the old GPU when fewer SMs are kept (-1: removed).
using Renumbering = std::vector<int>;

/// `list` without the removed SMs, the kept ones under their new ids.
std::vector<int> kept(const std::vector<int>& list, const Renumbering& renumber) {
    std::vector<int> out;
    for (int sm : list)
        if (renumber[static_cast<std::size_t>(sm)] >= 0) out.push_back(renumber[static_cast<std::size_t>(sm)]);
    return out;
}

/// The lists without the removed SMs, empty ones dropped; `index` (an index into `lists`)
/// moves to the first kept list at or after it, cyclically.
std::vector<std::vector<int>> kept_lists(const std::vector<std::vector<int>>& lists, const Renumbering& renumber, int* index) {
    std::vector<std::vector<int>> out;
    int moved = -1;
    for (std::size_t i = 0; i < lists.size(); ++i) {
        auto list = kept(lists[i], renumber);
        if (list.empty()) continue;
        if (index != nullptr && moved < 0 && static_cast<int>(i) >= *index) moved = static_cast<int>(out.size());
        out.push_back(std::move(list));
    }
    if (index != nullptr) *index = moved < 0 ? 0 : moved;
    return out;
}

/// Which SMs a GPU of `sm_count` < spec.sm_count keeps: the first sm_count of
/// topology.partition_order when it lists that many (renumbered 0..sm_count-1 in id order),
/// else SMs 0..sm_count-1.
Renumbering renumbering(const GpuSpec& spec, int sm_count) {
    Renumbering renumber(static_cast<std::size_t>(spec.sm_count), -1);
    if (static_cast<int>(spec.partition_order.size()) >= sm_count) {
        for (int i = 0; i < sm_count; ++i) renumber[static_cast<std::size_t>(spec.partition_order[static_cast<std::size_t>(i)])] = 0;
        int next = 0;
        for (auto& id : renumber)
            if (id == 0) id = next++;
        return renumber;
    }
    for (int sm = 0; sm < sm_count; ++sm) renumber[static_cast<std::size_t>(sm)] = sm;
    return renumber;
}

std::vector<int> id_range(int from, int to) {
    std::vector<int> out;
    for (int sm = from; sm < to; ++sm) out.push_back(sm);
    return out;
}

DispatchWalk walk_with_sm_count(const DispatchWalk& walk, int old_count, int sm_count, const Renumbering& renumber) {
    DispatchWalk out = walk;
    if (sm_count > old_count) {
        out.rows.push_back(id_range(old_count, sm_count));
        if (!out.groups.empty()) out.groups.push_back(id_range(old_count, sm_count));
        return out;
    }
    out.rows = kept_lists(walk.rows, renumber, &out.start_row);
    out.groups = kept_lists(walk.groups, renumber, nullptr);
    out.lead.clear();
    int lead_start = -1;
    for (std::size_t i = 0; i < walk.lead.size(); ++i) {
        const int id = renumber[static_cast<std::size_t>(walk.lead[i])];
        if (id < 0) continue;
        if (lead_start < 0 && static_cast<int>(i) >= walk.lead_start) lead_start = static_cast<int>(out.lead.size());
        out.lead.push_back(id);
    }
    out.lead_start = lead_start < 0 ? 0 : lead_start;
    if (out.rows.empty()) {  // every kept SM is in the lead: walk it as the one row
        out.rows.push_back(out.lead);
        if (!out.groups.empty() || !walk.groups.empty()) out.groups = {out.lead};
        out.lead.clear();
        out.start_row = 0;
        out.lead_start = 0;
    }
    out.lead_step = std::clamp(out.lead_step, 1, std::max(1, static_cast<int>(out.lead.size())));
    if (!out.lead.empty()) out.lead_start -= out.lead_start % out.lead_step;
    return out;
}

CompletionSweep sweep_with_sm_count(const CompletionSweep& sweep, int old_count, int sm_count, const Renumbering& renumber) {
    CompletionSweep out;
    if (sm_count > old_count) {
        out = sweep;
        double releases = 0;
        for (const auto& visit : sweep.visits) releases += visit.releases;
        const double per_sm = releases / old_count;
        out.visits.push_back({id_range(old_count, sm_count), std::clamp(per_sm * (sm_count - old_count), 0.01, 1e6)});
        return out;
    }
    for (const auto& visit : sweep.visits) {
        auto sms = kept(visit.sms, renumber);
        if (!sms.empty()) out.visits.push_back({std::move(sms), visit.releases});
    }
    return out;
}

/// Fewer SMs: each cluster group keeps its kept SMs under their new ids (an emptied group goes);
/// more SMs: the added SMs form one more group (docs/gpu-spec.md "Fewer or more SMs").
ClusterSpec clusters_with_sm_count(const ClusterSpec& clusters, int old_count, int sm_count, const Renumbering& renumber) {
    ClusterSpec out = clusters;
    if (sm_count > old_count) {
        out.groups.push_back(id_range(old_count, sm_count));
        return out;
    }
    out.groups.clear();
    std::vector<int> new_index(clusters.groups.size(), -1);
    for (std::size_t g = 0; g < clusters.groups.size(); ++g) {
        auto sms = kept(clusters.groups[g], renumber);
        if (sms.empty()) continue;
        new_index[g] = static_cast<int>(out.groups.size());
        out.groups.push_back(std::move(sms));
    }
    // A start group keeps its place when it stays a group of its kind; otherwise the default.
    const auto start = [&](const std::optional<int>& old, bool small) -> std::optional<int> {
        if (!old) return std::nullopt;
        const int g = new_index[static_cast<std::size_t>(*old)];
        if (g < 0 || is_small_cluster_group(out, static_cast<std::size_t>(g)) != small) return std::nullopt;
        return g;
    };
    out.start_group = start(clusters.start_group, false);
    out.start_small_group = start(clusters.start_small_group, true);
    return out;
}

/// The message of an InputError from parsing `label`'s YAML, without "LABEL" and ":LINE".
std::string without_location(const std::string& message, const std::string& label) {
    if (!message.starts_with(label + ":")) return message;
    std::size_t at = label.size() + 1;
    const std::size_t digits = message.find_first_not_of("0123456789", at);
    if (digits != std::string::npos && digits > at && message[digits] == ':') at = digits + 1;
    return message.substr(at);
}

/// Sets KEY, SECTION.KEY or SECTION.MAP.KEY (a mapping inside a section, such as
/// execution.tensor_flops_per_sm_cycle.bf16) of `root` to `value`, creating what is missing.
void set_key(YAML::Node& root, const std::string& path, const std::string& value) {
    std::vector<std::string> parts;
    for (std::size_t from = 0;;) {
        const auto dot = path.find('.', from);
        parts.push_back(path.substr(from, dot == std::string::npos ? std::string::npos : dot - from));
        if (dot == std::string::npos) break;
        from = dot + 1;
    }
    if (parts.size() > 3 || std::any_of(parts.begin(), parts.end(), [](const std::string& p) { return p.empty(); }))
        throw InputError("GPU key '" + path + "': expected KEY, SECTION.KEY or SECTION.MAP.KEY (docs/gpu-spec.md)");
    YAML::Node node = root;
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
        YAML::Node next = node[parts[i]];
        if (next && !next.IsMap()) {
            std::string prefix = parts[0];
            for (std::size_t j = 1; j <= i; ++j) prefix += "." + parts[j];
            throw InputError("GPU key '" + path + "': '" + prefix + "' is not a " + (i == 0 ? "section" : "mapping"));
        }
        node.reset(next);
    }
    node[parts.back()] = value;
}

}  // namespace

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

GpuSpec with_sm_count(const GpuSpec& spec, int sm_count) {
    GpuSpec out = spec;
    out.sm_count = sm_count;
    const int old_count = spec.sm_count;
    if (sm_count == old_count) return out;
    Renumbering renumber;  // empty when SMs are added
    if (sm_count < old_count) renumber = renumbering(spec, sm_count);
    if (!spec.sm_order.empty()) {
        out.sm_order = renumber.empty() ? spec.sm_order : kept(spec.sm_order, renumber);
        for (int sm = old_count; sm < sm_count; ++sm) out.sm_order.push_back(sm);
    }
    if (!spec.partition_order.empty()) {
        out.partition_order = renumber.empty() ? spec.partition_order : kept(spec.partition_order, renumber);
        if (renumber.empty() && static_cast<int>(spec.partition_order.size()) == old_count)
            for (int sm = old_count; sm < sm_count; ++sm) out.partition_order.push_back(sm);
    }
    if (spec.dispatch_walk) out.dispatch_walk = walk_with_sm_count(*spec.dispatch_walk, old_count, sm_count, renumber);
    if (spec.completion_sweep)
        out.completion_sweep = sweep_with_sm_count(*spec.completion_sweep, old_count, sm_count, renumber);
    if (spec.clusters) out.clusters = clusters_with_sm_count(*spec.clusters, old_count, sm_count, renumber);
    std::string problem;
    if (out.dispatch_walk) problem = dispatch_walk_problem(*out.dispatch_walk, sm_count, "topology.dispatch_walk");
    if (problem.empty() && out.completion_sweep)
        problem = completion_sweep_problem(*out.completion_sweep, sm_count, "topology.completion_sweep");
    if (problem.empty() && out.clusters) problem = cluster_spec_problem(*out.clusters, sm_count, "clusters");
    if (!problem.empty()) throw std::logic_error("with_sm_count(" + std::to_string(sm_count) + "): " + problem);
    validate_gpu_spec(out, spec.name + " with sm_count " + std::to_string(sm_count));
    return out;
}

std::string sm_count_rule(const GpuSpec& spec, int sm_count) {
    if (sm_count == spec.sm_count) return "";
    if (sm_count > spec.sm_count)
        return "SMs 0.." + std::to_string(spec.sm_count - 1) + " and " + std::to_string(sm_count - spec.sm_count) +
               " new ones";
    const Renumbering renumber = renumbering(spec, sm_count);
    const bool partition = static_cast<int>(spec.partition_order.size()) >= sm_count;
    std::string ranges;
    for (int sm = 0; sm < spec.sm_count; ++sm) {
        if (renumber[static_cast<std::size_t>(sm)] < 0 || (sm > 0 && renumber[static_cast<std::size_t>(sm - 1)] >= 0)) continue;
        int last = sm;
        while (last + 1 < spec.sm_count && renumber[static_cast<std::size_t>(last + 1)] >= 0) ++last;
        ranges += (ranges.empty() ? "" : ", ") + std::to_string(sm) + (last > sm ? "-" + std::to_string(last) : "");
    }
    const std::string k = std::to_string(sm_count);
    return partition ? "SMs " + ranges + " (the first " + k + " of topology.partition_order, the SMs a green context of " + k +
                           " SMs gets), renumbered 0.." + std::to_string(sm_count - 1)
                     : "SMs " + ranges + " (the lowest ids; no measured partition of " + k + " SMs)";
}

GpuSpec gpu_with_overrides(const std::string& base_yaml, const std::string& label, const GpuOverrides& overrides) {
    if (overrides.empty()) return parse_gpu_spec(base_yaml, label);
    YAML::Node root = parse_yaml_document(base_yaml, label);
    if (!root.IsMap()) return parse_gpu_spec(base_yaml, label);
    std::set<std::string> set_paths;
    for (const auto& [path, value] : overrides) {
        set_key(root, path, value);
        set_paths.insert(path);
    }
    const char* const topology_keys[] = {"sm_order", "partition_order", "dispatch_walk", "completion_sweep"};
    const bool resized = set_paths.contains("sm_count");
    std::vector<std::string> derived;  // topology keys that follow the base GPU by with_sm_count
    if (resized && root["topology"] && root["topology"].IsMap()) {
        for (const char* key : topology_keys) {
            if (set_paths.contains(std::string("topology.") + key) || !root["topology"][key]) continue;
            root["topology"].remove(key);
            derived.emplace_back(key);
        }
        if (root["topology"].size() == 0) root.remove("topology");
    }
    const bool clusters_set = std::any_of(set_paths.begin(), set_paths.end(),
                                          [](const std::string& p) { return p.rfind("clusters", 0) == 0; });
    const bool derived_clusters = resized && !clusters_set && root["clusters"];
    if (derived_clusters) root.remove("clusters");
    const bool partitions_set = std::any_of(set_paths.begin(), set_paths.end(),
                                            [](const std::string& p) { return p.rfind("partitions", 0) == 0; });
    const bool derived_partitions = resized && !partitions_set && root["partitions"];
    if (derived_partitions) root.remove("partitions");  // its SM ids are the base GPU's (hw::partition_sms checks)
    YAML::Emitter out;
    out << root;
    GpuSpec spec = parse_gpu_spec(std::string(out.c_str()) + "\n", label);
    if (derived.empty() && !derived_clusters && !derived_partitions) return spec;
    const GpuSpec base = with_sm_count(parse_gpu_spec(base_yaml, label), spec.sm_count);
    if (derived_clusters) spec.clusters = base.clusters;
    if (derived_partitions) spec.partitions = base.partitions;
    for (const auto& key : derived) {
        if (key == "sm_order") spec.sm_order = base.sm_order;
        if (key == "partition_order") spec.partition_order = base.partition_order;
        if (key == "dispatch_walk") spec.dispatch_walk = base.dispatch_walk;
        if (key == "completion_sweep") spec.completion_sweep = base.completion_sweep;
    }
    validate_gpu_spec(spec, label);
    return spec;
}

std::string overridden_gpu_name(const std::string& name, const GpuOverrides& overrides) {
    if (overrides.empty()) return name;
    std::string list;
    for (const auto& [path, value] : overrides) list += (list.empty() ? "" : ", ") + path + "=" + value;
    return name + " (" + list + ")";
}

std::pair<std::string, std::string> parse_gpu_override(const std::string& text, const std::string& flag) {
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
        throw InputError(flag + ": expected KEY=VALUE with a GPU key (docs/gpu-spec.md), e.g. sm_count=64 or "
                                "limits.max_blocks_per_sm=16, got '" + text + "'");
    const std::string key = text.substr(0, eq);
    std::string path = key;
    if (key.find('.') == std::string::npos) {
        const auto found = find_gpu_key(key);
        if (!found)
            throw InputError(flag + " " + text + ": unknown GPU key '" + key +
                             "' (the keys of docs/gpu-spec.md, as KEY or SECTION.KEY, e.g. sm_count, "
                             "limits.max_blocks_per_sm, memory.dram_bandwidth_gbps)");
        path = *found;
    }
    return {path, text.substr(eq + 1)};
}

GpuSpec resolve_gpu_with_overrides(const std::string& name_or_path, const GpuOverrides& overrides,
                                   const std::vector<std::string>& written) {
    GpuSpec base = resolve_gpu(name_or_path);
    if (overrides.empty()) return base;
    const auto preset = preset_yaml(name_or_path);
    const std::string yaml =
        preset ? std::string(*preset) : read_text_file(name_or_path, "GPU spec file", kMaxGpuSpecFileBytes);
    const std::string label = name_or_path + " with overrides";
    const auto named = [&](std::size_t i) { return i < written.size() ? written[i] : overrides[i].first + "=" + overrides[i].second; };
    GpuSpec spec;
    try {
        spec = gpu_with_overrides(yaml, label, overrides);
    } catch (const InconsistentSpecError& e) {
        std::string all;
        for (std::size_t i = 0; i < overrides.size(); ++i) all += (all.empty() ? "" : ", ") + named(i);
        throw InconsistentSpecError(all + ":" + without_location(e.what(), label));
    } catch (const InputError& e) {
        const std::string rest = without_location(e.what(), label);
        for (std::size_t i = overrides.size(); i-- > 0;)
            if (rest.find("key '" + overrides[i].first + "'") != std::string::npos ||
                rest.find("'" + overrides[i].first + "'") != std::string::npos)
                throw InputError(named(i) + ":" + rest);
        std::string all;
        for (std::size_t i = 0; i < overrides.size(); ++i) all += (all.empty() ? "" : ", ") + named(i);
        throw InputError(all + ":" + rest);
    }
    spec.name = overridden_gpu_name(base.name, overrides);
    return spec;
}

}  // namespace gpusched::hw
