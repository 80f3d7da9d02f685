// Every launch of clusters/gpc_map.csv (H100, H200) replayed with cluster dispatch: each cluster on its measured SMs.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <tuple>

#include "experiments/clusters/comparison.h"
#include "support/csv_table.h"
#include "support/sim_fixtures.h"

using namespace gpusched;

namespace {

/// Launches of `file` (columns smem, cluster_size, rep, cluster, rank, sm) replayed on `gpu_name`
/// from the default GPC start and their measured small-group start:
/// how many launches, and how many with every cluster on exactly its measured SMs.
std::pair<int, int> replay_gpc_map(const std::string& gpu_name, const std::string& file) {
    const std::string dir = std::string(GPUSCHED_SOURCE_DIR) + "/validation/data/" + gpu_name + "/clusters/";
    const std::string path = dir + file;
    REQUIRE_MESSAGE(std::filesystem::exists(path), path << " is missing (gpusched-runner clusters)");
    const auto table = test::read_csv_table(path);
    const int regs = std::stoi(test::read_csv_table(dir + "cluster_occupancy.csv").metadata.at("kernel_regs"));
    using Key = std::tuple<std::int64_t, int, int>;  // smem, cluster size, repetition
    std::map<Key, std::map<int, std::vector<int>>> launches;  // cluster -> SMs in rank order
    for (const auto& row : table.rows) {
        const Key key{std::stoll(row.at(table.column("smem"))), std::stoi(row.at(table.column("cluster_size"))),
                      std::stoi(row.at(table.column("rep")))};
        launches[key][std::stoi(row.at(table.column("cluster")))].push_back(std::stoi(row.at(table.column("sm"))));
    }
    int matched = 0;
    for (const auto& [key, clusters] : launches) {
        const auto [smem, size, rep] = key;
        hw::GpuSpec gpu = hw::resolve_gpu(gpu_name);
        std::vector<validation::MeasuredBlock> measured;
        for (const auto& [cluster, sms] : clusters)
            for (std::size_t rank = 0; rank < sms.size(); ++rank) {
                validation::MeasuredBlock b;
                b.block = static_cast<std::uint64_t>(cluster) * static_cast<std::uint64_t>(size) + rank;
                b.sm = sms[rank];
                measured.push_back(b);
            }
        // The GPC round-robin starts at the default, group 0 (clusters of 16, which GPC 0's 8 SMs
        // cannot hold, start at GPC 1 all the same); the small groups' start is read off the data.
        gpu.clusters->start_small_group = validation::cluster_start_of(measured, *gpu.clusters, size).small_group;
        workloads::KernelLaunch k = test::launch(measured.size(), 128, 200'000'000);
        k.registers_per_thread = regs;
        k.dynamic_shared_bytes = smem;
        k.cluster = hw::ClusterShape{size, 1, 1};
        k.cluster_nonportable = size > gpu.clusters->max_size;
        const auto r = test::run(gpu, test::app_of({k}), "most-room");
        std::map<int, std::vector<int>> simulated;
        std::map<std::uint64_t, int> sm_of;
        for (const auto& b : r.blocks) sm_of[b.block] = b.sm;
        for (const auto& [block, sm] : sm_of) simulated[static_cast<int>(block / static_cast<std::uint64_t>(size))].push_back(sm);
        std::map<int, std::vector<int>> expected = clusters;
        for (auto& [c, sms] : expected) std::sort(sms.begin(), sms.end());
        for (auto& [c, sms] : simulated) std::sort(sms.begin(), sms.end());
        CAPTURE(smem);
        CAPTURE(size);
        CAPTURE(rep);
        CHECK(simulated == expected);
        matched += simulated == expected ? 1 : 0;
    }
    return {static_cast<int>(launches.size()), matched};
}

}  // namespace

TEST_CASE("gpc_map.csv: every measured cluster launch replayed cluster for cluster on its measured SMs") {
    // One wave each (clusters = cudaOccupancyMaxActiveClusters) of 128-thread blocks with 227 KiB
    // (1 block per SM) or 100 KiB (2) of shared memory, clusters of 2, 3, 4, 6, 8 and 16: the level
    // round-robin from GPC 0 and the measured small-group start (docs/scheduling.md "Thread-block clusters").
    CHECK(replay_gpc_map("h100", "gpc_map.csv") == std::pair<int, int>{60, 60});
    CHECK(replay_gpc_map("h200", "gpc_map.csv") == std::pair<int, int>{120, 120});
    CHECK(replay_gpc_map("h200", "gpc_map_5reps.csv") == std::pair<int, int>{60, 60});
}
