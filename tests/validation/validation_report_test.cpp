// The HTML validation report and the placement metrics behind it.
#include <doctest/doctest.h>

#include <string>

#include "gpusched/hw/gpu_spec_io.h"
#include "experiments/placement/comparison.h"
#include "experiments/placement/view.h"
#include "experiments/streamcluster/view.h"
#include "experiments/streamcluster/comparison.h"
#include "gpusched/validation/validation_report.h"
#include "support/text_checks.h"

using namespace gpusched;

namespace {

const std::string kDir = std::string(GPUSCHED_SOURCE_DIR) + "/validation/data/h100/placement";

using gpusched::test::count_occurrences;

}  // namespace

TEST_CASE("ks distance: identical, disjoint and half-shifted samples") {
    CHECK(validation::ks_distance({1, 2, 3}, {1, 2, 3}) == 0.0);
    CHECK(validation::ks_distance({1, 2}, {5, 6}) == 1.0);
    // F_a jumps to 1/2 at 1 and 1 at 3; F_b to 1/2 at 3 and 1 at 5: the gap is 1/2 on [1, 3) and [3, 5).
    CHECK(validation::ks_distance({1, 3}, {3, 5}) == doctest::Approx(0.5));
    CHECK(validation::ks_distance({}, {1}) == 0.0);
}

TEST_CASE("validation report: a section and two Gantt charts per case, self-contained, deterministic") {
    const hw::GpuSpec gpu = hw::resolve_gpu("h100");
    const auto cases = validation::validate_placement(kDir, gpu, "most-room", true);
    REQUIRE(cases.size() >= 25);
    for (const auto& c : cases) {
        CAPTURE(c.name);
        CHECK(c.measured_blocks.size() == c.blocks);
        CHECK(c.simulated_blocks.size() == c.blocks);
        CHECK(c.measured_waves >= 1);
        CHECK(c.simulated_waves >= 1);
        CHECK(c.start_distance >= 0.0);
        CHECK(c.start_distance <= 1.0);
    }
    const validation::ReportContext context{kDir, "h100", "most-room"};
    const auto report = [&] {
        return validation::render_validation_report(
            context, {validation::PlacementView(cases, kDir, "h100", "most-room").report_part()});
    };
    const std::string html = report();
    CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
    CHECK(count_occurrences(html, "<section id=") == cases.size());
    CHECK(count_occurrences(html, "<svg ") == 2 * cases.size());
    CHECK(count_occurrences(html, "</svg>") == 2 * cases.size());
    CHECK(count_occurrences(html, "<script") == 0);
    CHECK(count_occurrences(html, "href=\"http") == 0);  // nothing external
    CHECK(html.find("wave265: measured") != std::string::npos);
    CHECK(count_occurrences(html, "<h2>Placement</h2>") == 1);
    CHECK(html.size() < 8u * 1024 * 1024);
    CHECK(html == report());
}

TEST_CASE("validation report: without per-block timelines the sections say so") {
    validation::PlacementComparison c;
    c.name = "a<b";
    c.blocks = 3;
    const std::string html = validation::render_validation_report(
        {"dir", "gpu", "policy"}, {validation::PlacementView({c}, "dir", "gpu", "policy").report_part()});
    CHECK(html.find("a&lt;b") != std::string::npos);
    CHECK(html.find("a<b") == std::string::npos);
    CHECK(html.find("no per-block timelines") != std::string::npos);
}

TEST_CASE("validation report: the streamcluster section, its chart over R and its timelines") {
    const hw::GpuSpec gpu = hw::resolve_gpu("h100");
    const std::string dir = std::string(GPUSCHED_SOURCE_DIR) + "/validation/data/h100/streamcluster";
    const auto s = validation::validate_streamcluster(dir, gpu, "most-room", validation::kStreamclusterDocumentedKeys, true);
    REQUIRE(s.timelines == 4);
    const validation::ReportContext context{dir, "h100", "most-room"};
    const auto report = [&] {
        return validation::render_validation_report(context, {validation::StreamclusterView(s, dir).report_part()});
    };
    const std::string html = report();
    CHECK(count_occurrences(html, "<section id=\"streamcluster\">") == 1);
    CHECK(html.find("streamcluster: kernel + D2H copies per call over the rake size R (pinned") != std::string::npos);
    CHECK(html.find("pinned total: measured") != std::string::npos);
    CHECK(html.find("pageable total: sim. x 0.99") != std::string::npos);
    CHECK(html.find("streamcluster R = 8: measured") != std::string::npos);
    CHECK(html.find("streamcluster R = 8: simulated") != std::string::npos);
    CHECK(count_occurrences(html, "<svg ") == 1 + 2 * 4);  // the chart, then two Gantt charts per timeline
    CHECK(count_occurrences(html, "<svg ") == count_occurrences(html, "</svg>"));
    CHECK(count_occurrences(html, "<script") == 0);
    CHECK(html.find("<h2>Placement</h2>") == std::string::npos);  // no placement cases: no empty table
    CHECK(html == report());
}
