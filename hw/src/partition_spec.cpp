// The `partitions` section of a GPU spec (checks, YAML) and the SMs a workload's partitions get.
#include "partition_spec_io.h"

#include <algorithm>
#include <numeric>

#include "gpusched/hw/gpu_spec.h"
#include "gpusched/support/input_error.h"

namespace gpusched::hw {

std::string partition_spec_problem(const PartitionSpec& spec, int sm_count, const std::string& path) {
    if (spec.granularity < 1) return path + ".granularity: expected at least 1";
    for (std::size_t s = 0; s < spec.splits.size(); ++s) {
        const std::string split = path + ".splits[" + std::to_string(s) + "]";
        const auto& groups = spec.splits[s];
        if (groups.empty()) return split + ": expected at least one group";
        std::vector<bool> seen(static_cast<std::size_t>(sm_count), false);
        for (std::size_t g = 0; g < groups.size(); ++g) {
            if (groups[g].empty() || groups[g].size() != groups.front().size())
                return split + "[" + std::to_string(g) + "]: expected as many SMs as the first group, at least one";
            for (int sm : groups[g]) {
                if (sm < 0 || sm >= sm_count)
                    return split + "[" + std::to_string(g) + "]: SM " + std::to_string(sm) + " is not below sm_count " +
                           std::to_string(sm_count);
                if (seen[static_cast<std::size_t>(sm)])
                    return split + "[" + std::to_string(g) + "]: SM " + std::to_string(sm) + " is in two groups";
                seen[static_cast<std::size_t>(sm)] = true;
            }
        }
    }
    return "";
}

std::optional<PartitionSpec> parse_partition_spec(YamlFields& top, int sm_count) {
    const auto node = top.optional_child("partitions");
    if (!node) return std::nullopt;
    YamlFields f(*node, top.source(), "partitions");
    PartitionSpec spec;
    spec.granularity = static_cast<int>(f.integer("granularity", 1, 4096));
    if (const auto splits = f.optional_child("splits")) {
        if (!splits->IsSequence()) f.fail("splits", "expected a list of splits, each a list of SM-id lists");
        for (std::size_t s = 0; s < splits->size(); ++s) {
            const YAML::Node split = (*splits)[s];
            if (!split.IsSequence()) f.fail("splits", "expected a list of SM-id lists at entry " + std::to_string(s));
            std::vector<std::vector<int>> groups;
            for (std::size_t g = 0; g < split.size(); ++g) {
                YAML::Node holder;
                holder["list"] = split[g];
                YamlFields entry(holder, f.source(),
                                 "partitions.splits[" + std::to_string(s) + "][" + std::to_string(g) + "]");
                std::vector<int> list;
                for (auto sm : entry.integer_list("list", 0, sm_count - 1)) list.push_back(static_cast<int>(sm));
                groups.push_back(std::move(list));
            }
            spec.splits.push_back(std::move(groups));
        }
    }
    f.finish();
    if (const auto problem = partition_spec_problem(spec, sm_count, "partitions"); !problem.empty())
        throw InputError(yaml_location(*node, top.source()) + ": " + problem);
    return spec;
}

void write_partition_spec(std::ostream& y, const PartitionSpec& spec) {
    y << "partitions:\n"
      << "  granularity: " << spec.granularity << "\n";
    if (spec.splits.empty()) return;
    y << "  splits:\n";
    for (const auto& split : spec.splits) {
        y << "    - [";
        for (std::size_t g = 0; g < split.size(); ++g) {
            y << (g ? ", " : "") << "[";
            for (std::size_t i = 0; i < split[g].size(); ++i) y << (i ? ", " : "") << split[g][i];
            y << "]";
        }
        y << "]\n";
    }
}

namespace {

/// `sms` sorted into the order of `order` (SMs not in it keep their id order, after).
std::vector<int> in_order_of(std::vector<int> sms, const std::vector<int>& order) {
    std::vector<std::size_t> position;
    for (int sm : sms) {
        const auto it = std::find(order.begin(), order.end(), sm);
        position.push_back(static_cast<std::size_t>(it - order.begin()));
    }
    std::vector<std::size_t> index(sms.size());
    std::iota(index.begin(), index.end(), std::size_t{0});
    std::stable_sort(index.begin(), index.end(), [&](std::size_t a, std::size_t b) {
        return position[a] != position[b] ? position[a] < position[b] : sms[a] < sms[b];
    });
    std::vector<int> out;
    for (std::size_t i : index) out.push_back(sms[i]);
    return out;
}

}  // namespace

std::vector<std::vector<int>> partition_sms(const GpuSpec& gpu, const std::vector<int>& sizes, const std::string& where,
                                            const std::string& key) {
    if (gpu.partition_order.empty() || !gpu.partitions)
        throw InputError(where + ": key '" + key + "': GPU '" + gpu.name +
                         "' has no model of green-context partitions (topology.partition_order and a partitions "
                         "section)");
    const int granularity = gpu.partitions->granularity;
    const int takeable = static_cast<int>(gpu.partition_order.size());
    const std::string allowed = "allowed: " + std::to_string(granularity) + ", " + std::to_string(2 * granularity) +
                                ", ... up to " + std::to_string(takeable - takeable % granularity) + " SMs in all";
    std::int64_t total = 0;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        if (sizes[i] < granularity || sizes[i] % granularity != 0)
            throw InputError(where + ": key '" + key + "[" + std::to_string(i) + "]': a partition of " + std::to_string(sizes[i]) +
                             " SMs is not a positive multiple of " + std::to_string(granularity) +
                             " (partitions.granularity of " + gpu.name + "; " + allowed + ")");
        total += sizes[i];
    }
    if (total > takeable)
        throw InputError(where + ": key '" + key + "': partitions of " + std::to_string(total) + " SMs in all are more than the " +
                         std::to_string(takeable) + " SMs green contexts can take on " + gpu.name +
                         " (topology.partition_order; " + allowed + ")");
    const bool equal = std::all_of(sizes.begin(), sizes.end(), [&](int k) { return k == sizes.front(); });
    const auto on_gpu = [&](const std::vector<std::vector<int>>& split) {  // a GPU of fewer SMs (--sms) may lack some
        for (const auto& group : split)
            for (int sm : group)
                if (sm >= gpu.sm_count) return false;
        return true;
    };
    if (sizes.size() > 1 && equal)
        for (const auto& split : gpu.partitions->splits)
            if (split.size() == sizes.size() && static_cast<int>(split.front().size()) == sizes.front() &&
                on_gpu(split)) {
                std::vector<std::vector<int>> out;
                for (const auto& group : split) out.push_back(in_order_of(group, gpu.partition_order));
                return out;
            }
    std::vector<std::vector<int>> out;
    std::size_t next = 0;
    for (int k : sizes) {
        const auto first = gpu.partition_order.begin() + static_cast<std::ptrdiff_t>(next);
        out.emplace_back(first, first + k);
        next += static_cast<std::size_t>(k);
    }
    return out;
}

}  // namespace gpusched::hw
