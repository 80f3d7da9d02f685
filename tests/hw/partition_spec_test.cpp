// Green-context partitions: the SMs the H100's driver gives one partition or a split, and the checks.
#include <doctest/doctest.h>

#include <algorithm>

#include "gpusched/hw/gpu_overrides.h"
#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/hw/partition_spec.h"
#include "gpusched/support/input_error.h"

using namespace gpusched;

TEST_CASE("partitions: one partition of K SMs is the first K of topology.partition_order") {
    const hw::GpuSpec gpu = hw::resolve_gpu("h100");
    // partition_order begins with the 8-SM units [0,1,16,17,32,33,48,49], [2,3,18,19,34,35,50,51]
    // (validation/data/h100/partitions/sm_sets.csv, K = 8 and 16).
    const auto sets = hw::partition_sms(gpu, {16}, "w.yaml");
    REQUIRE(sets.size() == 1);
    CHECK(sets[0] == std::vector<int>{0, 1, 16, 17, 32, 33, 48, 49, 2, 3, 18, 19, 34, 35, 50, 51});
    // K = 64: SMs 0..63 (four SMs per unit-step, 8 units).
    auto k64 = hw::partition_sms(gpu, {64}, "w.yaml")[0];
    std::sort(k64.begin(), k64.end());
    for (int i = 0; i < 64; ++i) CHECK(k64[static_cast<std::size_t>(i)] == i);
}

TEST_CASE("partitions: two equal partitions are the driver's measured split, others follow the order") {
    const hw::GpuSpec gpu = hw::resolve_gpu("h100");
    // Split 2 x 64 (sm_sets.csv groups=2): group 0 starts 0 1 4 5 8 9 ..., group 1 starts 2 3 6 7 ...;
    // neither holds SMs 128..131.
    const auto split = hw::partition_sms(gpu, {64, 64}, "w.yaml");
    REQUIRE(split.size() == 2);
    CHECK(split[0].size() == 64);
    CHECK(split[1].size() == 64);
    CHECK(std::find(split[0].begin(), split[0].end(), 4) != split[0].end());
    CHECK(std::find(split[1].begin(), split[1].end(), 6) != split[1].end());
    for (int sm : split[0]) CHECK(std::find(split[1].begin(), split[1].end(), sm) == split[1].end());
    // Unequal sizes (no measured split): 8 then 16 take the first 8 and the next 16 of the order.
    const auto seq = hw::partition_sms(gpu, {8, 16}, "w.yaml");
    CHECK(seq[0] == std::vector<int>{0, 1, 16, 17, 32, 33, 48, 49});
    CHECK(seq[1].front() == 2);
    CHECK(seq[1].size() == 16);
}

TEST_CASE("partitions: sizes off the granularity or over the SMs are refused naming the key") {
    const hw::GpuSpec gpu = hw::resolve_gpu("h100");
    CHECK_THROWS_WITH_AS(hw::partition_sms(gpu, {64, 12}, "w.yaml:3"),
                         "w.yaml:3: key 'partitions[1]': a partition of 12 SMs is not a positive multiple of 8 "
                         "(partitions.granularity of h100; allowed: 8, 16, ... up to 128 SMs in all)",
                         InputError);
    CHECK_THROWS_WITH_AS(hw::partition_sms(gpu, {128, 8}, "w.yaml"),
                         doctest::Contains("partitions of 136 SMs in all are more than the 128 SMs green contexts can "
                                           "take on h100"),
                         InputError);
    CHECK_THROWS_WITH_AS(hw::partition_sms(hw::resolve_gpu("a100"), {8}, "w.yaml"),
                         doctest::Contains("has no model of green-context partitions"), InputError);
}

TEST_CASE("partitions: the section reads back as written; on fewer SMs a partition stays inside them") {
    const hw::GpuSpec gpu = hw::resolve_gpu("h100");
    REQUIRE(gpu.partitions);
    CHECK(gpu.partitions->granularity == 8);
    CHECK(gpu.partitions->splits.size() == 3);  // 2 x 64, 4 x 32, 8 x 16
    const hw::GpuSpec again = hw::parse_gpu_spec(hw::to_yaml(gpu), "again");
    CHECK(again.partitions == gpu.partitions);
    // --sms 128 keeps SMs 0..127 (the first 128 of partition_order) under their ids: the 2 x 64 split
    // still applies; the 8 x 16 split uses SMs 128 and 129, which are gone: consecutive runs instead.
    const hw::GpuSpec k128 = hw::with_sm_count(gpu, 128);
    CHECK(hw::partition_sms(k128, {64, 64}, "w.yaml") == hw::partition_sms(gpu, {64, 64}, "w.yaml"));
    for (const auto& set : hw::partition_sms(k128, std::vector<int>(8, 16), "w.yaml"))
        for (int sm : set) CHECK(sm < 128);
}
