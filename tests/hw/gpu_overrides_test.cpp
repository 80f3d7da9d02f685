// GPU what-ifs: --set style overrides, and the one rule that keeps a measured SM topology consistent with sm_count.
#include <doctest/doctest.h>

#include <numeric>

#include "gpusched/hw/gpu_overrides.h"
#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/hw/presets.h"
#include "gpusched/support/input_error.h"

using namespace gpusched;

namespace {
const hw::GpuSpec& h100() {
    static const hw::GpuSpec spec = hw::resolve_gpu("h100");
    return spec;
}
}  // namespace

TEST_CASE("fewer SMs keep SMs 0..K-1 of the measured topology, in its order") {
    // The h100 walk: lead 124..131, rows A..H (A = 0 1 16 17 32 33 48 49, B = 2 3 18 19 34 35 50 51 64 65 ...),
    // groups 0-15, 16-31, ..., 120-123. K = 64 keeps SMs 0..63: the lead is gone, every row keeps its
    // part in 0..63 (8 SMs each: two per range 0-15, 16-31, 32-47, 48-63), the groups 0-15..48-63.
    const hw::GpuSpec s = hw::with_sm_count(h100(), 64);
    CHECK(s.sm_count == 64);
    REQUIRE(s.sm_order.size() == 64);
    CHECK(s.sm_order[0] == 0);  // 124..131 came first in the measured order; they are gone
    CHECK(s.sm_order[1] == 1);
    CHECK(s.sm_order[2] == 16);
    REQUIRE(s.dispatch_walk);
    CHECK(s.dispatch_walk->lead.empty());
    REQUIRE(s.dispatch_walk->rows.size() == 8);
    for (const auto& row : s.dispatch_walk->rows) CHECK(row.size() == 8);
    CHECK(s.dispatch_walk->rows[0] == std::vector<int>{0, 1, 16, 17, 32, 33, 48, 49});
    CHECK(s.dispatch_walk->rows[1] == std::vector<int>{2, 3, 18, 19, 34, 35, 50, 51});
    REQUIRE(s.dispatch_walk->groups.size() == 4);
    CHECK(s.dispatch_walk->groups[3].front() == 48);
    CHECK(s.dispatch_walk->start_row == 0);
    CHECK(s.dispatch_walk->lead_start == 0);
    // The sweep: row A (1.5 releases), the lead (dropped: no SM left), rows B..H (3 each), 8 SMs each now.
    REQUIRE(s.completion_sweep);
    REQUIRE(s.completion_sweep->visits.size() == 8);
    CHECK(s.completion_sweep->visits[0].releases == 1.5);
    CHECK(s.completion_sweep->visits[1].releases == 3);
    CHECK(s.completion_sweep->visits[1].sms == std::vector<int>{2, 3, 18, 19, 34, 35, 50, 51});
    // Everything else is the h100's.
    hw::GpuSpec same = s;
    same.sm_count = 132;
    same.sm_order = h100().sm_order;
    same.partition_order = h100().partition_order;
    same.dispatch_walk = h100().dispatch_walk;
    same.completion_sweep = h100().completion_sweep;
    same.clusters = h100().clusters;
    CHECK(same == h100());
}

TEST_CASE("a partly kept lead keeps its step; the start moves to the next kept row") {
    // K = 128 keeps lead SMs 124..127 (lead_step 4 still fits) and drops 128..131.
    const hw::GpuSpec s = hw::with_sm_count(h100(), 128);
    REQUIRE(s.dispatch_walk);
    CHECK(s.dispatch_walk->lead == std::vector<int>{124, 125, 126, 127});
    CHECK(s.dispatch_walk->lead_step == 4);
    // Rows G and H held 120, 121 / 122, 123 (kept) and nothing above 127: all 8 rows stay.
    CHECK(s.dispatch_walk->rows.size() == 8);
    hw::GpuSpec started = h100();
    started.dispatch_walk->start_row = 5;
    started.dispatch_walk->lead_start = 4;
    const hw::GpuSpec moved = hw::with_sm_count(started, 128);
    CHECK(moved.dispatch_walk->start_row == 5);
    CHECK(moved.dispatch_walk->lead_start == 0);  // lead index 4 (SM 128) is gone: back to the first kept lead SM
    // Without the measured partition order (the id rule), K = 8 keeps row A's 0 and 1, row B's 2 and 3, ... :
    // 4 rows of 2 SMs; start_row 5 (row F: 10, 11 gone) moves to the first kept row at or after it, cyclically:
    // row A, index 0.
    started.partition_order.clear();
    const hw::GpuSpec tiny = hw::with_sm_count(started, 8);
    CHECK(tiny.dispatch_walk->rows.size() == 4);
    CHECK(tiny.dispatch_walk->start_row == 0);
}

TEST_CASE("fewer SMs on a GPU with a measured partition order keep the SMs a green context gets") {
    // h100 topology.partition_order: 8-SM units A = 0 1 16 17 32 33 48 49, B = 2 3 18 19 34 35 50 51, ...
    // K = 16 keeps A and B, renumbered 0..15 in id order: 0 1 2 3 -> 0..3, 16..19 -> 4..7, 32..35 -> 8..11,
    // 48..51 -> 12..15.
    const hw::GpuSpec s = hw::with_sm_count(h100(), 16);
    CHECK(s.sm_count == 16);
    CHECK(s.partition_order == std::vector<int>{0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15});
    // The measured sm_order (124..131 first, then A, B, ...) without the other SMs: A then B, renumbered.
    CHECK(s.sm_order == std::vector<int>{0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15});
    // The walk keeps rows A and B (the lead 124..131 is gone) and the groups' parts 0-3, 16-19, 32-35, 48-51.
    REQUIRE(s.dispatch_walk);
    CHECK(s.dispatch_walk->lead.empty());
    REQUIRE(s.dispatch_walk->rows.size() == 2);
    CHECK(s.dispatch_walk->rows[0] == std::vector<int>{0, 1, 4, 5, 8, 9, 12, 13});
    CHECK(s.dispatch_walk->rows[1] == std::vector<int>{2, 3, 6, 7, 10, 11, 14, 15});
    REQUIRE(s.dispatch_walk->groups.size() == 4);
    CHECK(s.dispatch_walk->groups[1] == std::vector<int>{4, 5, 6, 7});
    // K = 64 is SMs 0..63 either way (units A..H): the id rule's result.
    CHECK(hw::with_sm_count(h100(), 64).sm_order.front() == 0);
    CHECK(hw::with_sm_count(h100(), 64).dispatch_walk->rows[0] == std::vector<int>{0, 1, 16, 17, 32, 33, 48, 49});
    // Above the 128 listed SMs the id rule keeps SMs 0..K-1.
    CHECK(hw::with_sm_count(h100(), 130).dispatch_walk->lead == std::vector<int>{124, 125, 126, 127, 128, 129});
    // The summaries' words for it (a note of simulate --sms K, the whatif validation).
    CHECK(hw::sm_count_rule(h100(), 16) == "SMs 0-3, 16-19, 32-35, 48-51 (the first 16 of topology.partition_order, the SMs "
                                           "a green context of 16 SMs gets), renumbered 0..15");
    CHECK(hw::sm_count_rule(h100(), 132).empty());
    CHECK(hw::sm_count_rule(h100(), 140) == "SMs 0..131 and 8 new ones");
    CHECK(hw::sm_count_rule(hw::resolve_gpu("a100"), 54) == "SMs 0-53 (the lowest ids; no measured partition of 54 SMs)");
    // The preset's list round-trips through the GPU file writer.
    CHECK(hw::parse_gpu_spec(hw::to_yaml(h100()), "h100 written").partition_order == h100().partition_order);
}

TEST_CASE("more SMs append the new ids as one more row, group and sweep visit") {
    const hw::GpuSpec s = hw::with_sm_count(h100(), 140);
    REQUIRE(s.sm_order.size() == 140);
    CHECK(s.sm_order[132] == 132);
    CHECK(s.sm_order[139] == 139);
    CHECK(s.dispatch_walk->rows.back() == std::vector<int>{132, 133, 134, 135, 136, 137, 138, 139});
    CHECK(s.dispatch_walk->groups.back() == s.dispatch_walk->rows.back());
    // Releases per SM over the measured visits: (1.5 + 1.5 + 7 x 3) / 132 = 24 / 132; 8 new SMs: 1.4545...
    CHECK(s.completion_sweep->visits.back().releases == doctest::Approx(24.0 / 132 * 8));
    // A GPU without a measured topology only changes its count.
    const hw::GpuSpec a100 = hw::with_sm_count(hw::resolve_gpu("a100"), 54);
    CHECK(a100.sm_count == 54);
    CHECK(a100.sm_order.empty());
    CHECK_FALSE(a100.dispatch_walk);
}

TEST_CASE("overrides: sm_count keeps the topology consistent; names and messages") {
    const std::string yaml(*hw::preset_yaml("h100"));
    const hw::GpuSpec s = hw::gpu_with_overrides(yaml, "v", {{"sm_count", "64"}, {"limits.max_blocks_per_sm", "16"}});
    CHECK(s.sm_count == 64);
    CHECK(s.max_blocks_per_sm == 16);
    CHECK(s.sm_order == hw::with_sm_count(h100(), 64).sm_order);
    CHECK(s.dispatch_walk == hw::with_sm_count(h100(), 64).dispatch_walk);
    CHECK(hw::overridden_gpu_name("h100", {{"sm_count", "64"}, {"limits.max_blocks_per_sm", "16"}}) ==
          "h100 (sm_count=64, limits.max_blocks_per_sm=16)");
    CHECK(hw::parse_gpu_override("max_blocks_per_sm=16", "--set") ==
          std::pair<std::string, std::string>{"limits.max_blocks_per_sm", "16"});
    CHECK(hw::parse_gpu_override("memory.dram_bandwidth_gbps=6700", "--set").first == "memory.dram_bandwidth_gbps");
    CHECK_THROWS_WITH_AS(hw::parse_gpu_override("frobs=1", "--set"), doctest::Contains("--set frobs=1: unknown GPU key 'frobs'"),
                         InputError);
    CHECK_THROWS_WITH_AS(hw::parse_gpu_override("sm_count", "--set"), doctest::Contains("--set: expected KEY=VALUE"),
                         InputError);
    const hw::GpuSpec named = hw::resolve_gpu_with_overrides("h100", {{"sm_count", "96"}}, {"--sms 96"});
    CHECK(named.name == "h100 (sm_count=96)");
    CHECK(named.dispatch_walk.has_value());
    CHECK_THROWS_WITH_AS(hw::resolve_gpu_with_overrides("h100", {{"sm_count", "0"}}, {"--sms 0"}),
                         "--sms 0: key 'sm_count': expected an integer in [1, 100000], got '0'", InputError);
    CHECK_THROWS_WITH_AS(hw::resolve_gpu_with_overrides("h100", {{"limits.max_threads_per_sm", "512"}},
                                                        {"--set limits.max_threads_per_sm=512"}),
                         doctest::Contains("--set limits.max_threads_per_sm=512: inconsistent spec"), InconsistentSpecError);
}
