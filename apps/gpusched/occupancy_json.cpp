// The occupancy JSON object: the request, the result, its limits and the cluster occupancy.
#include "occupancy_json.h"

namespace gpusched::cli {

nlohmann::ordered_json occupancy_json(const hw::GpuSpec& spec, const hw::OccupancyRequest& request,
                                      const hw::OccupancyResult& r, const std::optional<hw::ClusterOccupancy>& cluster) {
    nlohmann::ordered_json j;
    j["gpu"] = spec.name;
    j["compute_capability"] = spec.compute_capability();
    j["threads_per_block"] = request.threads_per_block;
    j["registers_per_thread"] = request.registers_per_thread;
    j["static_shared_bytes"] = request.static_shared_bytes;
    j["dynamic_shared_bytes"] = request.dynamic_shared_bytes;
    j["carveout"] = request.carveout.to_string();
    j["blocks_per_sm"] = r.blocks_per_sm;
    j["warps_per_block"] = r.warps_per_block;
    j["warps_per_sm"] = r.warps_per_sm;
    j["max_warps_per_sm"] = spec.max_warps_per_sm;
    j["occupancy"] = r.occupancy;
    j["limited_by"] = nlohmann::ordered_json::array();
    for (auto l : r.limited_by) j["limited_by"].push_back(hw::to_string(l));
    auto& limits = j["limits"];
    const auto put = [&](const char* key, int v) {
        if (v == hw::OccupancyResult::unlimited)
            limits[key] = nullptr;
        else
            limits[key] = v;
    };
    put("warps", r.limit_warps);
    put("registers", r.limit_registers);
    put("shared_memory", r.limit_shared_memory);
    put("blocks", r.limit_blocks);
    put("barriers", r.limit_barriers);
    j["registers_per_block"] = r.registers_per_block;
    j["shared_bytes_per_block"] = r.shared_bytes_per_block;
    j["shared_bytes_per_sm"] = r.shared_bytes_per_sm;
    j["needs_shared_optin"] = r.needs_shared_optin;
    if (cluster) {
        j["cluster_size"] = cluster->cluster_size;
        j["cluster_blocks_per_sm"] = cluster->blocks_per_sm;
        j["max_active_clusters"] = cluster->max_active_clusters;
    }
    return j;
}

}  // namespace gpusched::cli
