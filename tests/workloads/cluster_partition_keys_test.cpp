// The kernel-spec keys `cluster`, `cluster_nonportable` and the workload-file keys `partitions`, `partition`.
#include <doctest/doctest.h>

#include <algorithm>

#include "gpusched/hw/partition_spec.h"
#include "gpusched/hw/gpu_overrides.h"
#include "gpusched/support/input_error.h"
#include "gpusched/workloads/kernel_spec.h"
#include "gpusched/workloads/workload_file.h"
#include "support/sim_fixtures.h"

using namespace gpusched;

TEST_CASE("cluster keys: shapes that divide the grid are kept") {
    const auto k = workloads::parse_kernel_spec("synthetic:grid=8x4,threads=128,duration=1us,cluster=2x2", "--kernel");
    REQUIRE(k.cluster);
    CHECK(*k.cluster == hw::ClusterShape{2, 2, 1});
    CHECK_FALSE(k.cluster_nonportable);
    const auto n = workloads::parse_kernel_spec(
        "synthetic:blocks=32,threads=128,duration=1us,cluster=16,cluster_nonportable=1", "--kernel");
    CHECK(n.cluster->size() == 16);
    CHECK(n.cluster_nonportable);
    CHECK_FALSE(workloads::parse_kernel_spec("synthetic:blocks=8,threads=128,duration=1us", "--kernel").cluster);
}

TEST_CASE("cluster keys: bad shapes name the key and what is allowed") {
    // 8 blocks in clusters of 3: 8 mod 3 = 2.
    CHECK_THROWS_WITH_AS(workloads::parse_kernel_spec("synthetic:blocks=8,threads=128,duration=1us,cluster=3", "--kernel"),
                         "--kernel: key 'cluster': a cluster of 3x1x1 blocks does not divide the grid 8x1x1 (allowed: "
                         "each cluster dimension divides the grid's dimension)",
                         InputError);
    CHECK_THROWS_WITH_AS(workloads::parse_kernel_spec("synthetic:blocks=34,threads=128,duration=1us,cluster=17", "--kernel"),
                         "--kernel: key 'cluster': expected a cluster shape N, XxY or XxYxZ with each dimension 1..16, "
                         "got '17'",
                         InputError);
    CHECK_THROWS_WITH_AS(
        workloads::parse_kernel_spec("synthetic:blocks=8,threads=128,duration=1us,cluster_nonportable=1", "--kernel"),
        "--kernel: key 'cluster_nonportable': only with 'cluster' (a thread-block cluster shape)", InputError);
}

TEST_CASE("partition keys: streams and the whole application in green contexts") {
    const std::string yaml =
        "partitions: [64, 64]\n"
        "streams:\n"
        "  - {id: 0, partition: 0}\n"
        "  - {id: 1, partition: 1}\n"
        "launches:\n"
        "  - {kernel: synthetic, blocks: 320, threads: 1024, duration: 20us, stream: 0}\n"
        "  - {kernel: synthetic, blocks: 320, threads: 1024, duration: 20us, stream: 1}\n";
    const workloads::Application app = workloads::parse_workload(yaml, "w.yaml");
    CHECK(app.partitions == std::vector<int>{64, 64});
    CHECK(app.streams[1].partition == 1);
    // Simulated: each launch's blocks stay on its partition's SMs; 320 blocks of 2 per SM on 64 SMs
    // are 2.5 waves of 20 us: each launch ends at 3 x 20 = 60 us.
    const hw::GpuSpec gpu = test::small_gpu(132);
    const auto sets = hw::partition_sms(gpu, {64, 64}, "w.yaml");
    const auto r = test::run(gpu, app, "most-room");
    for (const auto& b : r.blocks) {
        const auto& set = sets[b.launch];
        CHECK(std::find(set.begin(), set.end(), b.sm) != set.end());
    }
    CHECK(r.makespan == 60'000'000);
    const workloads::Application whole =
        workloads::parse_workload("partitions: [16]\npartition: 0\nlaunches:\n"
                                  "  - {kernel: synthetic, blocks: 40, threads: 1024, duration: 20us, stream: 3}\n",
                                  "w.yaml");
    const auto r16 = test::run(gpu, whole, "most-room");
    const auto set16 = hw::partition_sms(gpu, {16}, "w.yaml")[0];
    for (const auto& b : r16.blocks) CHECK(std::find(set16.begin(), set16.end(), b.sm) != set16.end());
    CHECK(r16.makespan == 40'000'000);  // 40 blocks, 2 per SM on 16 SMs: 32 then 8, two waves of 20 us
}

TEST_CASE("partition keys: bad partitions name the key") {
    CHECK_THROWS_WITH_AS(workloads::parse_workload("streams:\n  - {id: 0, partition: 1}\npartitions: [8]\nlaunches:\n"
                                                   "  - {kernel: synthetic, blocks: 1, threads: 32, duration: 1us}\n",
                                                   "w.yaml"),
                         "w.yaml:2: key 'streams[0].partition': partition 1 does not exist (allowed: 0..0, the entries "
                         "of 'partitions')",
                         InputError);
    CHECK_THROWS_WITH_AS(workloads::parse_workload("streams:\n  - {id: 0, sms: [0], partition: 0}\npartitions: [8]\n"
                                                   "launches:\n  - {kernel: synthetic, blocks: 1, threads: 32, duration: 1us}\n",
                                                   "w.yaml"),
                         doctest::Contains("key 'streams[0].partition': give either 'sms' or 'partition', not both"),
                         InputError);
    const workloads::Application odd = workloads::parse_workload(
        "partitions: [12]\npartition: 0\nlaunches:\n  - {kernel: synthetic, blocks: 1, threads: 32, duration: 1us}\n",
        "w.yaml");
    CHECK_THROWS_WITH_AS(test::run(test::small_gpu(132), odd, "most-room"),
                         doctest::Contains("w.yaml:1: key 'partitions[0]': a partition of 12 SMs is not a positive "
                                           "multiple of 8"),
                         InputError);
}
