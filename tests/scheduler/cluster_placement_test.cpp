// ClusterPlacement (scheduler) in the engine: clusters inside one GPC group, active clusters as the occupancy calculator says, rollback.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>

#include "../../scheduler/src/cluster_placement.h"
#include "gpusched/hw/cluster_occupancy.h"
#include "gpusched/hw/gpu_overrides.h"
#include "gpusched/support/input_error.h"
#include "support/sim_fixtures.h"

namespace gpusched {

namespace {

using test::h100_without_overheads;

workloads::KernelLaunch cluster_launch(std::uint64_t blocks, int threads, int cluster, Time duration, int stream = 0) {
    workloads::KernelLaunch k = test::launch(blocks, threads, duration, stream);
    k.cluster = hw::ClusterShape{cluster, 1, 1};
    k.cluster_nonportable = cluster > 8;
    return k;
}

/// Blocks that started at time 0 (the first wave), per SM.
int first_wave(const test::Recorder& r) {
    return static_cast<int>(std::count_if(r.blocks.begin(), r.blocks.end(), [](const auto& b) { return b.start == 0; }));
}

int group_of(const hw::GpuSpec& gpu, int sm) {
    for (std::size_t g = 0; g < gpu.clusters->groups.size(); ++g)
        for (int s : gpu.clusters->groups[g])
            if (s == sm) return static_cast<int>(g);
    return -1;
}

int active_clusters(const hw::GpuSpec& gpu, int threads, int cluster) {
    hw::OccupancyRequest req;
    req.threads_per_block = threads;
    return hw::compute_cluster_occupancy(gpu, hw::compute_occupancy(gpu, req), {cluster, 1, 1}, true, "cluster")
        .max_active_clusters;
}

}  // namespace

TEST_CASE("cluster placement: the first wave holds exactly the calculator's active clusters, each in one group") {
    const hw::GpuSpec gpu = h100_without_overheads();
    // H100 groups: one of 8 SMs, five of 16, two of 18, four of 2 (clusters.groups).
    // b = min(blocks per SM, 8); active = sum over groups with n >= c of floor(b n / c):
    //   1024 threads (b 2), c 4:  floor(16/4) + 5 floor(32/4) + 2 floor(36/4) = 4 + 40 + 18      = 62
    //   512 threads  (b 4), c 8:  floor(32/8) + 5 floor(64/8) + 2 floor(72/8) = 4 + 40 + 18      = 62
    //   1024 threads (b 2), c 16: the 8-SM group is too small; 5 floor(32/16) + 2 floor(36/16)   = 14
    //   128 threads  (b 16 capped to 8), c 2: every group: 4 n; 4 x 132                          = 528
    //   1024 threads (b 2), c 3:  floor(16/3) + 5 floor(32/3) + 2 floor(36/3) = 5 + 50 + 24      = 79
    struct Case {
        int threads, cluster, expected;
    };
    for (const Case c : {Case{1024, 4, 62}, Case{512, 8, 62}, Case{1024, 16, 14}, Case{128, 2, 528}, Case{1024, 3, 79}}) {
        CAPTURE(c.threads);
        CAPTURE(c.cluster);
        REQUIRE(active_clusters(gpu, c.threads, c.cluster) == c.expected);
        const std::uint64_t clusters = static_cast<std::uint64_t>(c.expected) * 3;
        const auto r = test::run(gpu, test::app_of({cluster_launch(clusters * static_cast<std::uint64_t>(c.cluster),
                                                                   c.threads, c.cluster, 10'000'000)}),
                                 "most-room");
        CHECK(first_wave(r) == c.expected * c.cluster);
        CHECK(r.blocks.size() == clusters * static_cast<std::uint64_t>(c.cluster));
        // Every cluster's blocks share a start and a group.
        std::map<std::uint64_t, std::set<int>> groups;
        std::map<std::uint64_t, std::set<Time>> starts;
        for (const auto& b : r.blocks) {
            groups[b.block / static_cast<std::uint64_t>(c.cluster)].insert(group_of(gpu, b.sm));
            starts[b.block / static_cast<std::uint64_t>(c.cluster)].insert(b.start);
        }
        for (const auto& [cluster, g] : groups) {
            CHECK(g.size() == 1);
            CHECK(*g.begin() >= 0);
            CHECK(starts[cluster].size() == 1);
        }
        // Three waves of 10 us each.
        CHECK(r.makespan == 30'000'000);
    }
}

TEST_CASE("cluster placement: clusters go round-robin over the groups, each block to the SM with the most room") {
    const hw::GpuSpec gpu = h100_without_overheads();
    // Groups by size: the four 2-SM groups are too small for c = 4, so the visit order is
    // [0,1,16,17,32,33,48,49] (8 SMs), then the 16- and 18-SM groups in the spec's order.
    // Cluster 0 -> group 0: four SMs of room 2, the first four in list order: 0 1 16 17.
    // Cluster 1 -> the next group [2,3,18,19,...]: 2 3 18 19. Cluster 7 -> [14,15,30,31,...].
    // Cluster 8 -> back to group 0: SMs 32 33 48 49 still have room 2: 32 33 48 49.
    const auto r = test::run(gpu, test::app_of({cluster_launch(36, 1024, 4, 1'000'000)}), "most-room");
    std::map<std::uint64_t, int> sm_of;
    for (const auto& b : r.blocks) sm_of[b.block] = b.sm;
    CHECK(std::vector<int>{sm_of[0], sm_of[1], sm_of[2], sm_of[3]} == std::vector<int>{0, 1, 16, 17});
    CHECK(std::vector<int>{sm_of[4], sm_of[5], sm_of[6], sm_of[7]} == std::vector<int>{2, 3, 18, 19});
    CHECK(std::vector<int>{sm_of[28], sm_of[29], sm_of[30], sm_of[31]} == std::vector<int>{14, 15, 30, 31});
    CHECK(std::vector<int>{sm_of[32], sm_of[33], sm_of[34], sm_of[35]} == std::vector<int>{32, 33, 48, 49});
}

TEST_CASE("cluster placement: a cluster that does not fit a group reserves nothing there and waits") {
    hw::GpuSpec gpu = test::small_gpu(8);
    gpu.clusters->groups = {{0, 1, 2, 3}, {4, 5, 6, 7}};
    // Launch 0 (stream 0, SMs 0-2 only): 6 blocks of 1024 threads fill SMs 0, 1, 2 (2 each) for 100 us.
    // Launch 1 (stream 1): 3 clusters of 4 blocks of 1024 threads, 10 us each.
    //   group A (SMs 0-3) has room 0+0+0+2 = 2 < 4: never used while launch 0 runs;
    //   group B (SMs 4-7) has room 8: clusters 0 and 1 at t = 0, cluster 2 when they end (10 us).
    workloads::Application app = test::app_of({test::launch(6, 1024, 100'000'000, 0),
                                               cluster_launch(12, 1024, 4, 10'000'000, 1)});
    workloads::StreamConfig masked;
    masked.id = 0;
    masked.sm_mask = {0, 1, 2};
    app.streams = {masked};
    const auto r = test::run(gpu, app, "most-room");
    for (const auto& b : r.blocks) {
        if (b.launch != 1) continue;
        CAPTURE(b.block);
        CHECK(b.sm >= 4);
        CHECK(b.start == (b.block < 8 ? Time{0} : Time{10'000'000}));
    }
}

TEST_CASE("cluster placement: the blocks of a 2-D cluster") {
    // Grid 4 x 2, clusters 2 x 2: cluster 0 holds blocks (0,0) (1,0) (0,1) (1,1) = linear 0 1 4 5;
    // cluster 1 holds (2,0) (3,0) (2,1) (3,1) = 2 3 6 7 (linear = x + 4 y).
    const workloads::Dim3 grid{4, 2, 1};
    const hw::ClusterShape shape{2, 2, 1};
    std::vector<std::uint64_t> blocks;
    for (std::uint64_t c = 0; c < 2; ++c)
        for (int rank = 0; rank < 4; ++rank) blocks.push_back(scheduler::ClusterPlacement::block_of(grid, shape, c, rank));
    CHECK(blocks == std::vector<std::uint64_t>{0, 1, 4, 5, 2, 3, 6, 7});
    // Grid 2 x 2 x 2, clusters 1 x 1 x 2: cluster k = (x, y) holds z = 0 and 1: x + 2 y and x + 2 y + 4.
    CHECK(scheduler::ClusterPlacement::block_of({2, 2, 2}, {1, 1, 2}, 3, 1) == 7);
}

TEST_CASE("cluster placement: limits are checked when the simulation starts, naming the key") {
    const hw::GpuSpec gpu = test::small_gpu(8);
    auto over = cluster_launch(16, 1024, 16, 1000);
    over.cluster_nonportable = false;  // 16 > the portable 8
    CHECK_THROWS_WITH_AS(test::run(gpu, test::app_of({over}), "most-room"),
                         doctest::Contains("key 'cluster': a cluster of 16 blocks is over the portable limit of 8"),
                         InputError);
    hw::GpuSpec a100 = hw::resolve_gpu("a100");
    CHECK_THROWS_WITH_AS(test::run(a100, test::app_of({cluster_launch(4, 256, 2, 1000)}), "most-room"),
                         doctest::Contains("key 'cluster': thread-block clusters need compute capability 9.0"),
                         InputError);
}

}  // namespace gpusched
