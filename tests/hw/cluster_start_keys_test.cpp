// clusters.start_group / start_small_group: read, written back, checked against the groups' kinds, kept under --sms.
#include <doctest/doctest.h>

#include <string>

#include "gpusched/hw/gpu_overrides.h"
#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/support/input_error.h"

using namespace gpusched;

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
