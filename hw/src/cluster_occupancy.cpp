// Cluster occupancy (cudaOccupancyMaxActiveClusters) from the measured cluster groups of a GPU.
#include "gpusched/hw/cluster_occupancy.h"

#include <algorithm>

#include "gpusched/support/input_error.h"
#include "gpusched/support/yaml_fields.h"

namespace gpusched::hw {

ClusterOccupancy compute_cluster_occupancy(const GpuSpec& spec, const OccupancyResult& occupancy,
                                           const ClusterShape& shape, bool nonportable, const std::string& key) {
    if (spec.cc_major < 9)
        throw InputError(key + ": thread-block clusters need compute capability 9.0 or newer; GPU '" + spec.name +
                         "' is " + spec.compute_capability());
    if (!spec.clusters)
        throw InputError(key + ": GPU '" + spec.name + "' has no clusters section (which SMs can host a cluster)");
    const ClusterSpec& c = *spec.clusters;
    const int limit = nonportable ? c.max_size_nonportable : c.max_size;
    if (shape.size() > limit)
        throw InputError(key + ": a cluster of " + std::to_string(shape.size()) + " blocks is over the " +
                         (nonportable ? "non-portable" : "portable") + " limit of " + std::to_string(limit) + " on " +
                         spec.name + (nonportable || c.max_size_nonportable == c.max_size
                                          ? std::string()
                                          : " (up to " + std::to_string(c.max_size_nonportable) +
                                                " with the non-portable attribute)"));
    ClusterOccupancy r;
    r.cluster_size = shape.size();
    r.blocks_per_sm = c.max_blocks_per_sm > 0 ? std::min(occupancy.blocks_per_sm, c.max_blocks_per_sm)
                                              : occupancy.blocks_per_sm;
    for (const auto& group : c.groups) {
        const auto n = static_cast<std::int64_t>(group.size());
        if (n >= r.cluster_size) r.max_active_clusters += static_cast<int>(r.blocks_per_sm * n / r.cluster_size);
    }
    return r;
}

ClusterShape parse_cluster_shape(const std::string& text, const std::string& key) {
    ClusterShape s;
    int* dims[3] = {&s.x, &s.y, &s.z};
    std::size_t pos = 0;
    for (int d = 0; d < 3; ++d) {
        const std::size_t end = text.find('x', pos);
        const std::string part = text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
        const auto v = parse_integer(part);
        if (!v || *v < 1 || *v > 16)
            throw InputError(key + ": expected a cluster shape N, XxY or XxYxZ with each dimension 1..16, got '" + text +
                             "'");
        *dims[d] = static_cast<int>(*v);
        if (end == std::string::npos) return s;
        pos = end + 1;
    }
    throw InputError(key + ": expected a cluster shape N, XxY or XxYxZ with each dimension 1..16, got '" + text + "'");
}

}  // namespace gpusched::hw
