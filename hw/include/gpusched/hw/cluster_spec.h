// ClusterSpec: what a GPU of compute capability 9.0+ allows for thread-block clusters, and where.
#pragma once

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
    bool operator==(const ClusterSpec&) const = default;
};

/// Why `spec` is inconsistent for a GPU of `sm_count` SMs (an SM id out of range or in two
/// groups, a size limit below 1, the portable limit above the non-portable one), or "".
std::string cluster_spec_problem(const ClusterSpec& spec, int sm_count, const std::string& path);

}  // namespace gpusched::hw
