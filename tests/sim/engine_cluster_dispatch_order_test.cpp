// Cluster dispatch order: the level round-robin from the start groups, as the H100's first waves went; 1-block clusters by the walk.
#include <doctest/doctest.h>

#include <map>
#include <string>

#include "gpusched/hw/gpu_overrides.h"
#include "support/sim_fixtures.h"

namespace gpusched {

namespace {

using test::h100_without_overheads;

workloads::KernelLaunch cluster_launch(std::uint64_t blocks, int threads, int cluster) {
    workloads::KernelLaunch k = test::launch(blocks, threads, 10'000'000);
    k.cluster = hw::ClusterShape{cluster, 1, 1};
    return k;
}

/// Each cluster's SMs (cluster k = blocks k*c .. k*c+c-1), from a run's blocks.
std::map<std::uint64_t, std::vector<int>> cluster_sms(const test::Recorder& r, int cluster) {
    std::map<std::uint64_t, std::vector<int>> out;
    std::map<std::uint64_t, int> sm_of;
    for (const auto& b : r.blocks) sm_of[b.block] = b.sm;
    for (const auto& [block, sm] : sm_of) out[block / static_cast<std::uint64_t>(cluster)].push_back(sm);
    return out;
}

/// The group of each cluster as one character (0-9, a, b: the index in clusters.groups).
std::string group_sequence(const hw::GpuSpec& gpu, const test::Recorder& r, int cluster) {
    std::map<int, int> group_of;
    for (std::size_t g = 0; g < gpu.clusters->groups.size(); ++g)
        for (int sm : gpu.clusters->groups[g]) group_of[sm] = static_cast<int>(g);
    std::string out;
    for (const auto& [k, sms] : cluster_sms(r, cluster)) out += "0123456789ab"[group_of.at(sms.front())];
    return out;
}

}  // namespace

TEST_CASE("cluster order: clusters of 4 from GPC 7 fill the GPCs layer by layer, skipping a GPC whose layer is full") {
    hw::GpuSpec gpu = h100_without_overheads();
    gpu.clusters->start_group = 7;
    // 1024-thread blocks: 2 per SM (room 2). A group's level is the room of its 4th-roomiest SM.
    // Rounds 1-2 visit GPCs 7, 0, 1, ..., 6 (all at level 2). GPC 0 (8 SMs) then has one block on
    // every SM: level 1, while GPCs 1..7 are still at 2, so rounds 3-4 skip it: cluster 16 -> 7,
    // cluster 17 -> 1. After round 4 (cluster 29) GPCs 1..5 hold one block per SM and GPCs 6, 7
    // have 2 empty SMs (too few for 4): every GPC is at level 1; cluster 30 -> 7, 31 -> 0, ...
    // GPC 0 is full after 4 clusters (clusters 1, 9, 31, 39), GPCs 1..5 after 8, GPCs 6, 7 after 9:
    // clusters 60 and 61 -> 7 and 6. The H100's measured launch (timeline_c4_t1024_w2.5.csv, first
    // wave) went exactly so.
    const auto r = test::run(gpu, test::app_of({cluster_launch(62 * 4, 1024, 4)}), "most-room");
    CHECK(group_sequence(gpu, r, 4) == "70123456701234567123456712345670123456701234567123456712345676");
    // In a group, the 4 SMs with the most room, ties in the group's list order: cluster 0 takes the
    // first four of GPC 7 [14,15,30,31,46,47,...,122,123], cluster 8 the next four, cluster 30
    // (the first of layer 2 there) the two still empty SMs 122, 123 and then 14, 15.
    const auto sms = cluster_sms(r, 4);
    CHECK(sms.at(0) == std::vector<int>{14, 15, 30, 31});
    CHECK(sms.at(8) == std::vector<int>{46, 47, 62, 63});
    CHECK(sms.at(30) == std::vector<int>{14, 15, 122, 123});
    CHECK(sms.at(17) == std::vector<int>{64, 65, 78, 79});  // GPC 1's third: its first SMs of room 2
}

TEST_CASE("cluster order: clusters of 2 visit the small groups first in every layer, each kind from its own start") {
    hw::GpuSpec gpu = h100_without_overheads();
    gpu.clusters->start_group = 3;
    gpu.clusters->start_small_group = 11;
    // Layer 1: the four 2-SM groups from 11 (11, 8, 9, 10: one cluster fills each), then GPCs from
    // 3. GPC 0 fills its layer after 4 clusters, GPCs 1..5 after 8, GPCs 6, 7 after 9 (62 in all):
    // cluster 65 -> 7 ends layer 1. Layer 2: the small groups first again, from 11, then the GPCs
    // from where their round-robin stood (after 7: GPC 0). As measured: timeline_c2_t1024_w2.5.csv.
    const auto r = test::run(gpu, test::app_of({cluster_launch(132 * 2, 1024, 2)}), "most-room");
    CHECK(group_sequence(gpu, r, 2) ==
          "b89a34567012345670123456701234567012345671234567123456712345671267"
          "b89a01234567012345670123456701234567123456712345671234567123456767");
    const auto sms = cluster_sms(r, 2);
    CHECK(sms.at(0) == std::vector<int>{130, 131});
    CHECK(sms.at(4) == std::vector<int>{6, 7});
    CHECK(sms.at(70) == std::vector<int>{0, 1});
}

TEST_CASE("cluster order: without start keys each kind starts at its first group") {
    const hw::GpuSpec gpu = h100_without_overheads();
    // Small groups 8, 9, 10, 11 (SMs 124..131), then GPCs 0, 1, 2, 3 (as every launch of gpc_map.csv).
    const auto r = test::run(gpu, test::app_of({cluster_launch(8 * 2, 1024, 2)}), "most-room");
    CHECK(group_sequence(gpu, r, 2) == "89ab0123");
}

TEST_CASE("cluster order: clusters of one block follow the dispatch walk, under the per-SM cap") {
    hw::GpuSpec gpu = h100_without_overheads();
    gpu.dispatch_walk = hw::resolve_gpu("h100").dispatch_walk;
    gpu.dispatch_walk->start_row = 5;
    gpu.dispatch_walk->lead_start = 4;
    // The walk from row F (5), lead rotated by 4: blocks 0..7 on 128..131, 124..127; rows F, G, H,
    // A, B (16 + 18 + 18 + 8 + 16 = 76 SMs: blocks 8..83); the lead is due after 5 rows: blocks
    // 84..91 on 128..131, 124..127 again; then rows C, D, E from block 92 (SM 4). As the H100's
    // 1-block-cluster launch went (timeline_c1_t1024_w2.5.csv, walk start 5:4).
    const auto r = test::run(gpu, test::app_of({cluster_launch(264, 1024, 1)}), "walk");
    const auto sms = cluster_sms(r, 1);
    CHECK(sms.at(0).front() == 128);
    CHECK(sms.at(7).front() == 127);
    CHECK(sms.at(8).front() == 10);     // row F's first SM
    CHECK(sms.at(83).front() == 107);   // row B's last SM
    CHECK(sms.at(84).front() == 128);
    CHECK(sms.at(92).front() == 4);     // row C's first SM
    // 128-thread blocks: 16 fit an SM, clusters.cluster_blocks_per_sm allows 8: the first wave of a
    // 1-block-cluster launch is 8 x 132 = 1056 blocks (cudaOccupancyMaxActiveClusters: 1056).
    const auto capped = test::run(gpu, test::app_of({cluster_launch(2 * 1056, 128, 1)}), "walk");
    std::map<int, int> first_wave;
    for (const auto& b : capped.blocks)
        if (b.start == 0) ++first_wave[b.sm];
    CHECK(first_wave.size() == 132);
    for (const auto& [sm, n] : first_wave) CHECK(n == 8);
    CHECK(capped.makespan == 20'000'000);  // two waves of 10 us
}

}  // namespace gpusched
