// Cluster occupancy: gpusched against cudaOccupancyMaxActiveClusters measured on an H100 and an H200.
#include <doctest/doctest.h>

#include <filesystem>

#include "gpusched/hw/cluster_occupancy.h"
#include "gpusched/hw/gpu_overrides.h"
#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/support/input_error.h"
#include "support/csv_table.h"

using namespace gpusched;

namespace {

hw::OccupancyResult blocks(const hw::GpuSpec& gpu, int threads, int regs, std::int64_t smem) {
    hw::OccupancyRequest r;
    r.threads_per_block = threads;
    r.registers_per_thread = regs;
    r.dynamic_shared_bytes = smem;
    return hw::compute_occupancy(gpu, r);
}

/// Every row of validation/data/GPU/clusters/cluster_occupancy.csv (the runner's spin kernel, its
/// registers in the metadata): gpusched's blocks per SM and maximum active clusters equal the
/// CUDA occupancy API's.
void check_measured_table(const std::string& gpu_name) {
    const std::string path =
        std::string(GPUSCHED_SOURCE_DIR) + "/validation/data/" + gpu_name + "/clusters/cluster_occupancy.csv";
    REQUIRE_MESSAGE(std::filesystem::exists(path), path << " is missing (gpusched-runner clusters)");
    const auto table = test::read_csv_table(path);
    const hw::GpuSpec gpu = hw::resolve_gpu(gpu_name);
    const int regs = std::stoi(table.metadata.at("kernel_regs"));
    const auto col = [&table](const char* name) { return table.column(name); };
    int rows = 0, mismatches = 0;
    for (const auto& row : table.rows) {
        const int cluster = std::stoi(row.at(col("cluster_size")));
        const auto occupancy = blocks(gpu, std::stoi(row.at(col("threads"))), regs, std::stoll(row.at(col("smem"))));
        const auto c = hw::compute_cluster_occupancy(gpu, occupancy, {cluster, 1, 1}, true, "cluster");
        const bool same = occupancy.blocks_per_sm == std::stoi(row.at(col("blocks_per_sm"))) &&
                          c.max_active_clusters == std::stoi(row.at(col("max_active_clusters")));
        if (!same) {
            ++mismatches;
            MESSAGE(gpu_name << " cluster " << cluster << " threads " << row.at(col("threads")) << " smem " << row.at(col("smem"))
                             << ": measured " << row.at(col("max_active_clusters")) << ", gpusched " << c.max_active_clusters);
        }
        ++rows;
    }
    CHECK(rows == 336);
    CHECK(mismatches == 0);
}

}  // namespace

TEST_CASE("cluster occupancy matches every measured cudaOccupancyMaxActiveClusters row") {
    check_measured_table("h100");
    check_measured_table("h200");
}

TEST_CASE("cluster occupancy by hand: 1024-thread blocks in clusters of 4 on the h100") {
    // 2 blocks per SM; groups of 8, 5 x 16 and 2 x 18 SMs hold floor(2 x n / 4) clusters each:
    // 4 + 5 x 8 + 2 x 9 = 62; the four 2-SM groups are smaller than the cluster and hold none
    // (not 132 x 2 / 4 = 66).
    const hw::GpuSpec gpu = hw::resolve_gpu("h100");
    const auto c = hw::compute_cluster_occupancy(gpu, blocks(gpu, 1024, 0, 0), {4, 1, 1}, false, "cluster");
    CHECK(c.blocks_per_sm == 2);
    CHECK(c.max_active_clusters == 62);
    // A 2x2 shape is the same size.
    CHECK(hw::compute_cluster_occupancy(gpu, blocks(gpu, 1024, 0, 0), hw::parse_cluster_shape("2x2", "c"), false, "c")
              .max_active_clusters == 62);
    // 32-thread blocks: 32 per SM by the occupancy rules, 8 in cluster launches: 8 x 132 = 1056.
    CHECK(hw::compute_cluster_occupancy(gpu, blocks(gpu, 32, 0, 0), {1, 1, 1}, false, "c").max_active_clusters == 1056);
}

TEST_CASE("cluster shapes and limits are checked") {
    const hw::GpuSpec h100 = hw::resolve_gpu("h100");
    const auto occ = blocks(h100, 128, 0, 0);
    CHECK_THROWS_WITH_AS(hw::compute_cluster_occupancy(h100, occ, {16, 1, 1}, false, "--cluster"),
                         doctest::Contains("--cluster: a cluster of 16 blocks is over the portable limit of 8"),
                         InputError);
    CHECK(hw::compute_cluster_occupancy(h100, occ, {16, 1, 1}, true, "--cluster").max_active_clusters == 58);
    const hw::GpuSpec a100 = hw::resolve_gpu("a100");
    CHECK_THROWS_WITH_AS(hw::compute_cluster_occupancy(a100, blocks(a100, 128, 0, 0), {2, 1, 1}, false, "--cluster"),
                         doctest::Contains("need compute capability 9.0"), InputError);
    for (const char* bad : {"0", "17", "2x", "x2", "2x2x2x2", "a", "", "2x0"})
        CHECK_THROWS_AS(hw::parse_cluster_shape(bad, "--cluster"), InputError);
    const auto s = hw::parse_cluster_shape("2x1x4", "--cluster");
    CHECK(s.size() == 8);
}

TEST_CASE("fewer SMs keep the cluster groups' SMs below the count") {
    // sm_count 64 keeps SMs 0..63: the 8-SM group whole, the others 8 each (their ids below 64).
    const hw::GpuSpec gpu = hw::with_sm_count(hw::resolve_gpu("h100"), 64);
    REQUIRE(gpu.clusters);
    int total = 0;
    for (const auto& g : gpu.clusters->groups) total += static_cast<int>(g.size());
    CHECK(total == 64);
    CHECK(gpu.clusters->groups.size() == 8);
}
