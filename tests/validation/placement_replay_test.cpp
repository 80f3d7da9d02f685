// Replays every measured H100 placement timeline with the h100 preset; CI holds today's accuracy.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/hw/input_error.h"
#include "gpusched/validation/measured_timeline.h"
#include "gpusched/validation/placement_validation.h"

using namespace gpusched;

namespace {

const std::string kDir = std::string(GPUSCHED_SOURCE_DIR) + "/validation/data/h100/placement";

/// Today's accuracy per class of case (docs/validation.md). The first wave of many small
/// blocks starts faster than the fitted steady-state dispatch interval allows.
double span_tolerance_percent(const std::string& name) {
    if (name == "tiny32") return 9.0;
    if (name == "bs32_w1" || name == "bs64_w1") return 4.5;
    if (name == "bs128_w1") return 2.0;
    if (name == "b2b132x5") return 1.0;
    if (name == "bs256_w1") return 0.6;
    return 0.35;
}

}  // namespace

TEST_CASE("replayed H100 placement cases: kernel span and per-SM block counts") {
    const auto results = validation::validate_placement(kDir, hw::resolve_gpu("h100"), "most-room");
    CHECK(results.size() >= 25);
    int exact = 0;
    std::string table = "\ncase          measured_us  simulated_us  error_%  misplaced_blocks\n";
    for (const auto& r : results) {
        CAPTURE(r.name);
        CHECK(std::abs(r.error_percent) <= span_tolerance_percent(r.name));
        exact += r.misplaced == 0 ? 1 : 0;
        char line[160];
        std::snprintf(line, sizeof line, "%-12s %12.3f %13.3f %8.2f %17d\n", r.name.c_str(), r.measured_us,
                      r.simulated_us, r.error_percent, r.misplaced);
        table += line;
    }
    MESSAGE(table);
    CHECK(exact >= 11);  // today: every single-wave case; multi-wave refills diverge (docs/validation.md)
}

TEST_CASE("malformed measured timelines are input errors naming file and line") {
    const std::string dir = std::string(GPUSCHED_SOURCE_DIR) + "/tests/workloads/data/";
    CHECK_THROWS_WITH_AS(validation::read_measured_timeline(dir + "replay_missing_column.csv"),
                         doctest::Contains("replay_missing_column.csv:"), InputError);
    CHECK_THROWS_WITH_AS(validation::read_measured_timeline(dir + "replay_end_before_start.csv"),
                         doctest::Contains("replay_end_before_start.csv:3: end_ns is before start_ns"), InputError);
    CHECK(validation::read_measured_timeline(dir + "replay_plain.csv").blocks.size() > 0);
    CHECK_THROWS_AS(validation::read_measured_timeline(dir + "nope.csv"), InputError);
    CHECK_THROWS_AS(validation::validate_placement(dir + "nope", hw::resolve_gpu("h100"), "most-room"), InputError);
}
