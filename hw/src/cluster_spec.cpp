// The `clusters` section of a GPU spec: consistency checks, YAML reading and writing.
#include "cluster_spec_io.h"

#include "gpusched/support/input_error.h"

namespace gpusched::hw {

std::string cluster_spec_problem(const ClusterSpec& spec, int sm_count, const std::string& path) {
    if (spec.max_size < 1 || spec.max_size_nonportable < spec.max_size)
        return path + ": expected 1 <= max_size <= max_size_nonportable";
    std::vector<int> group_of(static_cast<std::size_t>(sm_count), -1);
    for (std::size_t g = 0; g < spec.groups.size(); ++g) {
        if (spec.groups[g].empty()) return path + ".groups[" + std::to_string(g) + "]: expected at least one SM";
        for (int sm : spec.groups[g]) {
            if (sm < 0 || sm >= sm_count)
                return path + ".groups[" + std::to_string(g) + "]: SM " + std::to_string(sm) + " is not below sm_count " +
                       std::to_string(sm_count);
            int& owner = group_of[static_cast<std::size_t>(sm)];
            if (owner >= 0)
                return path + ".groups[" + std::to_string(g) + "]: SM " + std::to_string(sm) + " is also in groups[" +
                       std::to_string(owner) + "]";
            owner = static_cast<int>(g);
        }
    }
    const auto start_problem = [&](const std::optional<int>& start, const char* key, bool small) -> std::string {
        if (!start) return "";
        const auto g = static_cast<std::size_t>(*start);
        if (*start >= 0 && g < spec.groups.size() && is_small_cluster_group(spec, g) == small) return "";
        std::string allowed;
        for (std::size_t i = 0; i < spec.groups.size(); ++i)
            if (is_small_cluster_group(spec, i) == small) allowed += (allowed.empty() ? "" : ", ") + std::to_string(i);
        return path + "." + key + ": " + std::to_string(*start) + " is not the index of a group of " +
               (small ? "fewer than " : "at least ") + std::to_string(spec.max_size) +
               " SMs (max_size); expected one of: " + (allowed.empty() ? "none" : allowed);
    };
    if (auto problem = start_problem(spec.start_group, "start_group", false); !problem.empty()) return problem;
    return start_problem(spec.start_small_group, "start_small_group", true);
}

std::optional<ClusterSpec> parse_cluster_spec(YamlFields& top, int sm_count) {
    const auto node = top.optional_child("clusters");
    if (!node) return std::nullopt;
    YamlFields f(*node, top.source(), "clusters");
    ClusterSpec spec;
    spec.max_size = static_cast<int>(f.integer("max_size", 1, 1024));
    spec.max_size_nonportable =
        static_cast<int>(f.optional_integer("max_size_nonportable", 1, 1024).value_or(spec.max_size));
    spec.max_blocks_per_sm = static_cast<int>(f.optional_integer("cluster_blocks_per_sm", 1, 4096).value_or(0));
    const YAML::Node groups = f.child("groups");
    if (!groups.IsSequence()) f.fail("groups", "expected a list of SM-id lists, e.g. [[0, 1], [2, 3]]");
    for (std::size_t g = 0; g < groups.size(); ++g) {
        YAML::Node holder;
        holder["list"] = groups[g];
        YamlFields entry(holder, f.source(), "clusters.groups[" + std::to_string(g) + "]");
        std::vector<int> list;
        for (auto sm : entry.integer_list("list", 0, sm_count - 1)) list.push_back(static_cast<int>(sm));
        spec.groups.push_back(std::move(list));
    }
    const auto index = [&](const char* key) -> std::optional<int> {
        if (const auto v = f.optional_integer(key, 0, 1 << 20)) return static_cast<int>(*v);
        return std::nullopt;
    };
    spec.start_group = index("start_group");
    spec.start_small_group = index("start_small_group");
    f.finish();
    if (const auto problem = cluster_spec_problem(spec, sm_count, "clusters"); !problem.empty())
        throw InputError(yaml_location(*node, top.source()) + ": " + problem);
    return spec;
}

void write_cluster_spec(std::ostream& y, const ClusterSpec& spec) {
    y << "clusters:\n"
      << "  max_size: " << spec.max_size << "\n"
      << "  max_size_nonportable: " << spec.max_size_nonportable << "\n";
    if (spec.max_blocks_per_sm > 0) y << "  cluster_blocks_per_sm: " << spec.max_blocks_per_sm << "\n";
    y << "  groups:\n";
    for (const auto& group : spec.groups) {
        y << "    - [";
        for (std::size_t i = 0; i < group.size(); ++i) y << (i ? ", " : "") << group[i];
        y << "]\n";
    }
    if (spec.start_group) y << "  start_group: " << *spec.start_group << "\n";
    if (spec.start_small_group) y << "  start_small_group: " << *spec.start_small_group << "\n";
}

}  // namespace gpusched::hw
