// Maximum active clusters of a cluster launch, as cudaOccupancyMaxActiveClusters reports it.
#pragma once

#include <string>

#include "gpusched/hw/gpu_spec.h"
#include "gpusched/hw/occupancy.h"

namespace gpusched::hw {

/// Thread-block cluster shape (blocks per cluster in x, y, z).
struct ClusterShape {
    int x = 1, y = 1, z = 1;
    [[nodiscard]] int size() const { return x * y * z; }
    bool operator==(const ClusterShape&) const = default;
};

struct ClusterOccupancy {
    int cluster_size = 1;
    int blocks_per_sm = 0;       ///< min(occupancy's blocks per SM, clusters.cluster_blocks_per_sm)
    int max_active_clusters = 0;
};

/// With b = min(blocks per SM, clusters.cluster_blocks_per_sm) and c the cluster size, every group
/// g of n_g SMs with n_g >= c holds floor(b x n_g / c) clusters; the sum over the groups is the
/// answer. Matches all 336 rows of cudaOccupancyMaxActiveClusters measured on the H100 and the
/// H200 (cluster sizes 1..16 x 8 block sizes x 6 shared-memory sizes; tests/hw/cluster_occupancy_test.cpp).
/// InputError naming `key` when the GPU is below compute capability 9.0 or has no `clusters`
/// section, or when c exceeds clusters.max_size_nonportable (or max_size unless `nonportable`).
ClusterOccupancy compute_cluster_occupancy(const GpuSpec& spec, const OccupancyResult& occupancy,
                                           const ClusterShape& shape, bool nonportable, const std::string& key);

/// "N", "XxY" or "XxYxZ", each 1..16; InputError naming `key` otherwise.
ClusterShape parse_cluster_shape(const std::string& text, const std::string& key);

}  // namespace gpusched::hw
