// The clusters section: occupancy against cudaOccupancyMaxActiveClusters (H100, H200), groups and start keys.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

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

namespace {

/// The h100 preset's YAML with `lines` added at the top of its clusters section.
std::string h100_with(const std::string& lines) {
    std::string yaml = hw::to_yaml(hw::resolve_gpu("h100"));
    const std::size_t at = yaml.find("clusters:\n");
    REQUIRE(at != std::string::npos);
    return yaml.insert(at + 10, lines);
}

}  // namespace

TEST_CASE("cluster start keys: absent in the presets, read and written back when given") {
    const hw::GpuSpec h100 = hw::resolve_gpu("h100");
    REQUIRE(h100.clusters);
    CHECK_FALSE(h100.clusters->start_group);
    CHECK_FALSE(h100.clusters->start_small_group);
    // H100 groups: 0..7 are GPCs (8, 16 x5, 18 x2 SMs), 8..11 the 2-SM groups of SMs 124..131.
    const hw::GpuSpec gpu = hw::parse_gpu_spec(h100_with("  start_group: 7\n  start_small_group: 11\n"), "g.yaml");
    CHECK(gpu.clusters->start_group == 7);
    CHECK(gpu.clusters->start_small_group == 11);
    CHECK(hw::parse_gpu_spec(hw::to_yaml(gpu), "again").clusters == gpu.clusters);
}

TEST_CASE("cluster start keys: a group of the other kind or past the list is refused naming the key and the choices") {
    // max_size 8: groups with at least 8 SMs are GPC groups (0..7), the others small groups (8..11).
    CHECK_THROWS_WITH_AS(hw::parse_gpu_spec(h100_with("  start_group: 9\n"), "g.yaml"),
                         doctest::Contains("clusters.start_group: 9 is not the index of a group of at least 8 SMs "
                                           "(max_size); expected one of: 0, 1, 2, 3, 4, 5, 6, 7"),
                         InputError);
    CHECK_THROWS_WITH_AS(hw::parse_gpu_spec(h100_with("  start_small_group: 3\n"), "g.yaml"),
                         doctest::Contains("clusters.start_small_group: 3 is not the index of a group of fewer than 8 "
                                           "SMs (max_size); expected one of: 8, 9, 10, 11"),
                         InputError);
    CHECK_THROWS_WITH_AS(hw::parse_gpu_spec(h100_with("  start_group: 12\n"), "g.yaml"),
                         doctest::Contains("clusters.start_group: 12 is not the index"), InputError);
}

TEST_CASE("cluster start keys under fewer SMs: a kept group keeps its start, an emptied one falls back to the first") {
    const hw::GpuSpec gpu = hw::parse_gpu_spec(h100_with("  start_group: 7\n  start_small_group: 10\n"), "g.yaml");
    // 64 SMs keep SMs 0..63 (the first 64 of topology.partition_order): each GPC keeps 8 SMs (GPC 7:
    // 14 15 30 31 46 47 62 63), still a GPC group; the 2-SM groups 8..11 (SMs 124..131) go.
    const hw::GpuSpec fewer = hw::with_sm_count(gpu, 64);
    REQUIRE(fewer.clusters->groups.size() == 8);
    CHECK(fewer.clusters->groups[7] == std::vector<int>{14, 15, 30, 31, 46, 47, 62, 63});
    CHECK(fewer.clusters->start_group == 7);
    CHECK_FALSE(fewer.clusters->start_small_group);
}
