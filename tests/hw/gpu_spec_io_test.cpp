// GpuSpec YAML parsing: round trips, and errors that name file, line and key.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <algorithm>
#include <utility>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/support/input_error.h"
#include "gpusched/hw/presets.h"
#include "support/gpu_spec_text.h"

using namespace gpusched;

namespace {
std::string h100_text() { return std::string(*hw::preset_yaml("h100")); }

/// Replaces the first line whose text after indentation starts with `key:` by `replacement`
/// (keeping the indentation).
std::string with_line(std::string text, const std::string& key, const std::string& replacement) {
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        const std::size_t indent = text.find_first_not_of(' ', start);
        if (indent < end && text.compare(indent, key.size() + 1, key + ":") == 0) {
            text.replace(indent, end - indent, replacement);
            return text;
        }
        start = end + 1;
    }
    FAIL("no line for key " << key);
    return text;
}

std::string error_of(const std::string& text) { return test::spec_error(text); }
}  // namespace

TEST_CASE("every preset round-trips through to_yaml and the loader") {
    for (const auto& name : hw::preset_names()) {
        CAPTURE(name);
        const hw::GpuSpec spec = hw::resolve_gpu(name);
        CHECK(spec.name == name);
        const hw::GpuSpec again = hw::parse_gpu_spec(hw::to_yaml(spec), "roundtrip.yaml");
        CHECK(again == spec);
        CHECK(hw::to_yaml(again) == hw::to_yaml(spec));
    }
}

TEST_CASE("a spec file loads from a path, and an unknown name lists the presets") {
    const std::string path = (std::filesystem::temp_directory_path() / "gpusched_test_spec.yaml").string();
    {
        std::ofstream out(path);
        out << hw::to_yaml(hw::resolve_gpu("h100"));
    }
    CHECK(hw::resolve_gpu(path).sm_count == 132);
    CHECK_THROWS_WITH_AS(hw::resolve_gpu("h1000"), doctest::Contains("h100"), InputError);
    CHECK_THROWS_WITH_AS(hw::resolve_gpu("missing/file.yaml"), doctest::Contains("missing/file.yaml"), InputError);
}

TEST_CASE("field errors name the file, the line and the key") {
    const std::string base = h100_text();
    // sm_count is on its own line; the message must point at it.
    const std::string zero_sms = with_line(base, "sm_count", "sm_count: 0");
    const std::string msg = error_of(zero_sms);
    CHECK(msg.find("bad.yaml:") == 0);
    CHECK(msg.find("'sm_count'") != std::string::npos);
    CHECK(msg.find("[1, 100000]") != std::string::npos);

    CHECK(error_of(with_line(base, "max_threads_per_sm", "max_threads_per_sm: lots"))
              .find("'limits.max_threads_per_sm'") != std::string::npos);
    CHECK(error_of(with_line(base, "clock_mhz", "clock_mhz: -5")).find("'execution.clock_mhz'") !=
          std::string::npos);
    CHECK(error_of(with_line(base, "register_granularity", "register_granularity: thread"))
              .find("expected one of warp, block") != std::string::npos);
    CHECK(error_of(with_line(base, "compute_capability", "compute_capability: \"nine\""))
              .find("MAJOR.MINOR") != std::string::npos);
    CHECK(error_of(with_line(base, "warp_size", "warp_size: 32\n  warp_sise: 32")).find("unknown key 'limits.warp_sise'") !=
          std::string::npos);
    CHECK(error_of(with_line(base, "sm_count", "sm_count: 1e99")).find("'sm_count'") != std::string::npos);
    CHECK(error_of(with_line(base, "registers_per_sm", "registers_per_sm: [1, 2]")).find("single value") !=
          std::string::npos);
}

TEST_CASE("missing keys, cross-field inconsistencies and broken documents are rejected") {
    const std::string base = h100_text();
    CHECK(error_of(with_line(base, "max_blocks_per_sm", "")).find("'limits.max_blocks_per_sm': required key") !=
          std::string::npos);
    // 64 warps x 32 = 2048 threads: 4096 threads per SM is inconsistent.
    CHECK(error_of(with_line(base, "max_threads_per_sm", "max_threads_per_sm: 4096")).find("max_warps_per_sm") !=
          std::string::npos);
    CHECK(error_of(with_line(base, "shared_memory_per_block_optin", "shared_memory_per_block_optin: 1000"))
              .find("shared_memory_per_block") != std::string::npos);
    CHECK(error_of(with_line(base, "shared_memory_configs_kib", "shared_memory_configs_kib: [0, 8, 4, 228]"))
              .find("ascending") != std::string::npos);
    CHECK(error_of(with_line(base, "sm_order", "sm_order: [0, 1, 1]")).find("exactly once") !=
          std::string::npos);
    CHECK(error_of(with_line(base, "sms_per_tpc", "sms_per_tpc: 2\n  sms_per_tpc: 3")).find("appears twice") !=
          std::string::npos);
    CHECK(error_of("").find("empty YAML") != std::string::npos);
    CHECK(error_of("- a\n- b\n").find("mapping") != std::string::npos);
    CHECK(error_of("name: [unclosed\n").find("YAML syntax error") != std::string::npos);
    CHECK(error_of(std::string("name: x\0\x01\x02", 10)).find("NUL") != std::string::npos);
}

TEST_CASE("launch-pipeline and completion-channel overheads are range-checked by key") {
    const std::string base = h100_text();
    for (const char* key : {"sm_block_launch_ns", "sm_warp_launch_ns", "block_completion_interval_ns"}) {
        CAPTURE(key);
        const std::string k = key;
        CHECK(error_of(with_line(base, k, k + ": -1")).find("overheads." + k) != std::string::npos);
        CHECK(error_of(with_line(base, k, k + ": 2e6")).find("overheads." + k) != std::string::npos);  // above 10^6 ns
        CHECK(error_of(with_line(base, k, k + ": soon")).find("overheads." + k) != std::string::npos);
        CHECK(error_of(with_line(base, k, k + ": 0")) == "(no error)");
    }
}

TEST_CASE("L2 bandwidth, memory latencies and SM latencies are range-checked by key") {
    const std::string base = h100_text();
    struct Key {
        const char* section;
        const char* key;
        const char* too_low;
        const char* too_high;
    };
    for (const Key k : {Key{"memory", "l2_bandwidth_gbps", "0", "2e9"}, Key{"memory", "l2_hit_latency_cycles", "0", "2e6"},
                        Key{"memory", "dram_latency_cycles", "0.5", "2e6"},
                        Key{"memory", "tile_fill_extra_cycles", "-1", "2e6"},
                        Key{"execution", "l1_wavefronts_per_cycle", "0", "2000"},
                        Key{"execution", "alu_latency_cycles", "0", "2e6"},
                        Key{"execution", "shared_memory_latency_cycles", "0", "2e6"},
                        Key{"execution", "barrier_cycles", "-1", "2e6"},
                        Key{"execution", "barrier_cycles_per_warp", "-1", "2e6"}}) {
        CAPTURE(k.key);
        const std::string name = std::string(k.section) + "." + k.key;
        const std::string key = k.key;
        for (const char* bad : {k.too_low, k.too_high, "fast"}) {
            const std::string error = error_of(with_line(base, key, key + ": " + bad));
            CHECK(error.find("bad.yaml") != std::string::npos);
            CHECK(error.find(name) != std::string::npos);
        }
        CHECK(error_of(with_line(base, key, key + ": 3")) == "(no error)");
    }
    // The H100 preset carries them, and they round-trip.
    const hw::GpuSpec h100 = hw::parse_gpu_spec(base, "h100.yaml");
    CHECK(h100.l2_bandwidth_gbps.value_or(0) > *h100.dram_bandwidth_gbps);
    CHECK(h100.l2_hit_latency_cycles.value_or(0) < h100.dram_latency_cycles.value_or(0));
    CHECK(hw::parse_gpu_spec(hw::to_yaml(h100), "again.yaml") == h100);
}

TEST_CASE("topology.dispatch_walk: each SM once over lead and rows, start state and gaps in range") {
    const std::string base = h100_text();
    const auto walk = hw::resolve_gpu("h100").dispatch_walk;
    REQUIRE(walk);
    CHECK(walk->lead.size() + 124 == 132);  // 8 lead SMs + 124 in the 8 rows
    CHECK(walk->rows.size() == 8);
    // SM 124 is in the lead: listing it in a row too is a duplicate.
    CHECK(error_of(with_line(base, "lead", "lead: [124, 125, 126, 127, 128, 129, 130, 131, 0]"))
              .find("topology.dispatch_walk.rows: SM 0 listed twice") != std::string::npos);
    CHECK(error_of(with_line(base, "lead", "lead: [125, 126, 127, 128, 129, 130, 131]"))
              .find("SM 124 is in neither lead nor rows") != std::string::npos);
    CHECK(error_of(with_line(base, "start_row", "start_row: 8")).find("start_row: expected 0..7, got 8") !=
          std::string::npos);
    CHECK(error_of(with_line(base, "lead_start", "lead_start: 8")).find("lead_start: expected 0..7") !=
          std::string::npos);
    CHECK(error_of(with_line(base, "lead_step", "lead_step: 9")).find("lead_step: expected 1..8") != std::string::npos);
    CHECK(error_of(with_line(base, "lead_gap", "lead_gap: 0")).find("dispatch_walk.lead_gap") != std::string::npos);
    CHECK(error_of(with_line(base, "rows", "rows: 3")).find("dispatch_walk.rows") != std::string::npos);
    std::string short_group = base;
    const std::string last_group = "      - [120, 121, 122, 123]\n";
    REQUIRE(short_group.find(last_group) != std::string::npos);
    short_group.replace(short_group.find(last_group), last_group.size(), "      - [120, 121, 122]\n");
    CHECK(error_of(short_group).find("SM 123 is in neither lead nor groups") != std::string::npos);
    CHECK(error_of(with_line(base, "lead_first_gap", "lead_first_gap: 5\n    lead_frist_gap: 5"))
              .find("lead_frist_gap") != std::string::npos);
}

TEST_CASE("topology.completion_sweep: visits of SM lists with releases, each SM in exactly one visit") {
    const std::string base = h100_text();
    const auto sweep = hw::resolve_gpu("h100").completion_sweep;
    REQUIRE(sweep);
    CHECK(sweep->visits.size() == 9);  // row A, the lead, rows B..H
    CHECK(sweep->visits[0].releases == 1.5);
    CHECK(sweep->visits[8].releases == 3);
    const std::string lead_visit = "    - {sms: [124, 125, 126, 127, 128, 129, 130, 131], releases: 1.5}\n";
    REQUIRE(base.find(lead_visit) != std::string::npos);
    const auto replaced = [&](const std::string& visit) {
        std::string text = base;
        text.replace(text.find(lead_visit), lead_visit.size(), visit);
        return text;
    };
    // Each bad visit is an input error naming the file, the visit and what is allowed.
    const std::pair<const char*, const char*> bad_visits[] = {
        {"{sms: [124, 125, 126, 127, 128, 129, 130, 131, 0], releases: 1.5}", "completion_sweep[1].sms: SM 0 listed twice"},
        {"{sms: [125, 126, 127, 128, 129, 130, 131], releases: 1.5}", "completion_sweep: SM 124 is in no visit"},
        {"{sms: [124, 125, 126, 127, 128, 129, 130, 131], releases: 0}", "completion_sweep[1].releases"},
        {"{sms: [124, 125, 126, 127, 128, 129, 130, 131, 132], releases: 1}", "completion_sweep[1].sms"},
        {"{sms: [124, 125, 126, 127, 128, 129, 130, 131], releases: 1, weight: 2}", "weight"},
        {"[124, 125, 126, 127, 128, 129, 130, 131]", "completion_sweep[1]: expected {sms: [SM ids], releases: N}"},
        {"{sms: [124], releases: fast}", "completion_sweep[1].releases"},
        {"{releases: 1}", "completion_sweep[1]"},
    };
    for (const auto& [visit, expected] : bad_visits) {
        CAPTURE(visit);
        const std::string error = error_of(replaced(std::string("    - ") + visit + "\n"));
        CHECK(error.find("bad.yaml") != std::string::npos);
        CHECK(error.find(expected) != std::string::npos);
    }
    std::string scalar = base;
    const std::size_t from = scalar.find("  completion_sweep:\n"), to = scalar.find("limits:");
    REQUIRE(from < to);
    scalar.replace(from, to - from, "  completion_sweep: 3\n");
    CHECK(error_of(scalar).find("topology.completion_sweep': expected a list") != std::string::npos);
}

TEST_CASE("--walk-start values: ROW or ROW:LEAD within the walk") {
    auto walk = *hw::resolve_gpu("h100").dispatch_walk;
    CHECK(hw::set_walk_start(walk, "3:4", "--walk-start").empty());
    CHECK(walk.start_row == 3);
    CHECK(walk.lead_start == 4);
    CHECK(hw::set_walk_start(walk, "5", "--walk-start").empty());
    CHECK(walk.start_row == 5);
    CHECK(walk.lead_start == 0);
    for (const char* bad : {"8", "-1", "2:8", "x", "", "1:", "1:2:3"})
        CHECK(hw::set_walk_start(walk, bad, "--walk-start").find("--walk-start: expected ROW or ROW:LEAD") == 0);
}
