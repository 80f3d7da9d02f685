// The kernel-spec keys of thread-block clusters and their check against the grid.
#include "cluster_keys.h"

#include <string>

namespace gpusched::workloads {

namespace {

std::string dims_text(std::uint64_t x, std::uint64_t y, std::uint64_t z) {
    return std::to_string(x) + "x" + std::to_string(y) + "x" + std::to_string(z);
}

}  // namespace

void apply_cluster_keys(SpecArgs& args, KernelLaunch& launch) {
    if (args.has("cluster_nonportable") && !args.has("cluster"))
        args.fail("cluster_nonportable", "only with 'cluster' (a thread-block cluster shape)");
    if (!args.has("cluster")) return;
    launch.cluster = hw::parse_cluster_shape(args.text("cluster"),
                                             args.where("cluster") + ": key '" + args.key_path("cluster") + "'");
    launch.cluster_nonportable = args.optional_integer("cluster_nonportable", 0, 1).value_or(0) == 1;
}

void check_cluster_divides_grid(const SpecArgs& args, const KernelLaunch& launch) {
    if (!launch.cluster) return;
    const hw::ClusterShape& c = *launch.cluster;
    if (launch.grid.x % static_cast<std::uint32_t>(c.x) == 0 && launch.grid.y % static_cast<std::uint32_t>(c.y) == 0 &&
        launch.grid.z % static_cast<std::uint32_t>(c.z) == 0)
        return;
    args.fail("cluster", "a cluster of " + dims_text(static_cast<std::uint64_t>(c.x), static_cast<std::uint64_t>(c.y),
                                                     static_cast<std::uint64_t>(c.z)) +
                             " blocks does not divide the grid " +
                             dims_text(launch.grid.x, launch.grid.y, launch.grid.z) +
                             " (allowed: each cluster dimension divides the grid's dimension)");
}

}  // namespace gpusched::workloads
