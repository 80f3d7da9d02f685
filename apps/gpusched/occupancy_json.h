// The object `gpusched occupancy --json` prints (and the Python module's occupancy() returns): one builder for both.
#pragma once

#include <optional>

#include <nlohmann/json.hpp>

#include "gpusched/hw/cluster_occupancy.h"
#include "gpusched/hw/gpu_spec.h"
#include "gpusched/hw/occupancy.h"

namespace gpusched::cli {

/// The request, the result (blocks, warps, occupancy, what limits it, each limit with null for
/// none, the bytes and registers per block) and, when given, the cluster occupancy.
nlohmann::ordered_json occupancy_json(const hw::GpuSpec& spec, const hw::OccupancyRequest& request,
                                      const hw::OccupancyResult& r, const std::optional<hw::ClusterOccupancy>& cluster);

}  // namespace gpusched::cli
