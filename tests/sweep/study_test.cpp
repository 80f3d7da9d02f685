// Study files: parameter recognition, GPU key overrides validated like GPU files, and located errors.
#include <doctest/doctest.h>

#include "gpusched/hw/gpu_overrides.h"
#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/support/input_error.h"
#include "gpusched/hw/presets.h"
#include "gpusched/sweep/gpu_variants.h"
#include "gpusched/sweep/point_runner.h"
#include "sweep/study_fixtures.h"

using namespace gpusched;
using gpusched::test::study_from;

namespace {
std::string with_points(const std::string& points) {
    return "study: t\nworkloads:\n  w: \"synthetic:blocks=4,threads=32,duration=1us\"\npoints:\n" + points;
}
}  // namespace

TEST_CASE("GPU keys by bare name, section path or gpu. prefix") {
    CHECK(sweep::find_gpu_key("max_blocks_per_sm") == "limits.max_blocks_per_sm");
    CHECK(sweep::find_gpu_key("sm_count") == "sm_count");
    CHECK(sweep::find_gpu_key("dram_bandwidth_gbps") == "memory.dram_bandwidth_gbps");
    CHECK_FALSE(sweep::find_gpu_key("frobs").has_value());
    const auto s = study_from(with_points("  - list: [{max_blocks_per_sm: 8, overheads.kernel_launch_ns: 0, gpu.name: x}]\n"));
    CHECK(s.params[4].gpu_path == "limits.max_blocks_per_sm");
    CHECK(s.params[5].gpu_path == "overheads.kernel_launch_ns");
    CHECK(s.params[6].gpu_path == "name");
}

TEST_CASE("an override gives the spec of the edited GPU file; sm_count keeps the SM order consistent") {
    const std::string h100(*hw::preset_yaml("h100"));
    const auto spec = sweep::gpu_with_overrides(h100, "v", {{"sm_count", "40"}, {"limits.max_blocks_per_sm", "24"}});
    CHECK(spec.sm_count == 40);
    CHECK(spec.max_blocks_per_sm == 24);
    CHECK(spec.sm_order == hw::with_sm_count(hw::resolve_gpu("h100"), 40).sm_order);  // SMs 0..39, measured order
    CHECK(spec.dispatch_walk.has_value());
    CHECK(spec.max_warps_per_sm == hw::parse_gpu_spec(h100, "h100").max_warps_per_sm);
    CHECK_THROWS_WITH_AS(sweep::gpu_with_overrides(h100, "v", {{"sm_count", "0"}}),
                         doctest::Contains("key 'sm_count': expected an integer in [1, 100000], got '0'"), InputError);
    CHECK_THROWS_AS(sweep::gpu_with_overrides(h100, "v", {{"limits.max_threads_per_sm", "512"}}), InconsistentSpecError);
}

TEST_CASE("bad studies are errors naming the file, line and key") {
    const auto throws = [](const std::string& yaml, const std::string& what) {
        CHECK_THROWS_WITH_AS(
            {
                const auto s = study_from(yaml);
                sweep::check_study(s);
            },
            doctest::Contains(what.c_str()), InputError);
    };
    throws(with_points("  - grid: {frobs: [1]}\n"), "study.yaml:5: key 'frobs': unknown parameter");
    throws(with_points("  - grid: {threads: []}\n"), "study.yaml:5: key 'points[0].grid.threads': empty list");
    throws(with_points("  - grid: {sm_count: [4, -1]}\n"), "study.yaml:5: point 1 (sm_count=-1): h100+sm_count=-1:4: key 'sm_count': expected an integer in [1, 100000]");
    throws(with_points("  - grid: {threads: [32, many]}\n"), "key 'threads': expected an integer");
    throws(with_points("  - grid: {threads: [32]}\n    list: [{threads: 64}]\n"), "exactly one of grid:, list: or random:");
    throws(with_points("  - list: [{policy: fifo}]\n"), "unknown policy 'fifo'");
    throws(with_points("  - list: [{exec: turbo}]\n"), "unknown execution model 'turbo' (allowed: auto, fixed, shared)");
    throws(with_points("  - list: [{workload: v}]\n"), "unknown workload 'v' (the study's workloads: w)");
    throws(with_points("  - random: {count: 3, seed: 1, axes: {threads: {min: 64, max: 32}}}\n"), "min <= max");
    throws(with_points(""), "key 'points': required key is missing");
    throws(with_points("  []\n"), "key 'points': expected a non-empty list");
    throws("study: t\nworkloads:\n  w: \"warp:blocks=1\"\npoints:\n  - list: [{threads: 1}]\n", "does not name a known kernel");
    throws(with_points("  - list: [{threads: 32}]\nextra: 1\n"), "unknown key 'extra'");
}

TEST_CASE("GPU preset names in any case become the preset's own name, in every kind of point set") {
    // fixed H100, a grid axis [C2075, a100], a list row GTX480, a random choice V100: all written as the presets spell them.
    const auto s = study_from("study: t\nworkloads:\n  w: \"synthetic:blocks=4,threads=32,duration=1us\"\n"
                              "fixed: {gpu: H100}\npoints:\n  - grid: {gpu: [C2075, a100]}\n  - list: [{gpu: GTX480}]\n"
                              "  - random: {count: 1, seed: 1, axes: {gpu: [V100]}}\n");
    CHECK(s.fixed[sweep::kGpuParam] == "h100");
    REQUIRE(s.sets.size() == 3);
    CHECK(s.sets[0].axes.at(0).values == std::vector<std::string>{"c2075", "a100"});
    CHECK(s.sets[1].rows.at(0).at(0).second == "gtx480");
    CHECK(s.sets[2].random_axes.at(0).choices == std::vector<std::string>{"v100"});
    // A GPU file's name is not a preset's: kept as written.
    const auto file = study_from(with_points("  - list: [{gpu: ./My.yaml}]\n"));
    CHECK(file.sets[0].rows.at(0).at(0).second == "./My.yaml");
}
