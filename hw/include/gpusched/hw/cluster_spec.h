// ClusterSpec: what a GPU of compute capability 9.0+ allows for thread-block clusters, and where.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gpusched::hw {

/// The `clusters` section of a GPU spec (docs/gpu-spec.md). All blocks of a cluster are
/// co-scheduled on the SMs of one group (a GPC, as far as clusters can use it). The groups are
/// measured: the SMs that hosted blocks of one cluster (validation/data/h100/clusters/gpc_map.csv);
/// they need not cover every SM (an SM in no group hosts no cluster larger than one block).
struct ClusterSpec {
    int max_size = 8;              ///< blocks per cluster without the non-portable attribute
    int max_size_nonportable = 8;  ///< with cudaFuncAttributeNonPortableClusterSizeAllowed
    int max_blocks_per_sm = 0;     ///< blocks of cluster launches one SM holds at most (0 = no cap)
    std::vector<std::vector<int>> groups;  ///< SM ids of each group
    /// Where the round-robins of cluster dispatch start (docs/scheduling.md "Thread-block
    /// clusters"): the index in `groups` of the GPC group (a group of at least max_size SMs)
    /// and of the small group (fewer SMs) every cluster launch visits first. Absent: the first
    /// of each kind in the list. The hardware's start varies from launch to launch, so replays
    /// of measured launches set these to the measured start.
    std::optional<int> start_group;
    std::optional<int> start_small_group;
    bool operator==(const ClusterSpec&) const = default;
};

/// Whether group `g` of `spec` is a small group (fewer SMs than max_size, such as the H100's
/// 2-SM groups): small groups have their own round-robin, visited before the GPC groups'.
[[nodiscard]] inline bool is_small_cluster_group(const ClusterSpec& spec, std::size_t g) {
    return spec.groups[g].size() < static_cast<std::size_t>(spec.max_size);
}

/// Why `spec` is inconsistent for a GPU of `sm_count` SMs (an SM id out of range or in two
/// groups, a size limit below 1, the portable limit above the non-portable one, a start that
/// is not a group of its kind), or "".
std::string cluster_spec_problem(const ClusterSpec& spec, int sm_count, const std::string& path);

}  // namespace gpusched::hw
