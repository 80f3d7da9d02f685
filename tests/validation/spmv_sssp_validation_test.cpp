// SpMV and n x SSSP measured on the H100 against the simulation; CI holds today's accuracy and the hard checks.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/support/input_error.h"
#include "gpusched/validation/spmv_validation.h"
#include "gpusched/validation/sssp_frontier_check.h"
#include "gpusched/validation/sssp_validation.h"

using namespace gpusched;

namespace {

const std::string kData = std::string(GPUSCHED_SOURCE_DIR) + "/validation/data/h100/";

}  // namespace

TEST_CASE("SpMV on the H100: every configuration, one-point calibration, today's error") {
    const auto s = validation::validate_spmv(kData + "spmv", hw::resolve_gpu("h100"), "most-room");
    REQUIRE(s.points.size() == 64);
    CHECK(s.timelines == 32);
    CHECK(s.reference_matrix == "spheres-40k");
    CHECK(s.reference_format == "csr");
    for (const auto& p : s.points) {
        CAPTURE(p.matrix);
        CAPTURE(p.format);
        CHECK(p.blocks > 0);
        CHECK(p.blocks == p.grid_blocks);  // the simulated grids are the runner's
        CHECK((p.format == "hyb" ? p.launches >= 1 && p.launches <= 2 : p.launches == 1));
        if (p.matrix == s.reference_matrix && p.format == s.reference_format)
            CHECK(p.span_error_percent == doctest::Approx(0).epsilon(1e-9));
    }
    CHECK(s.grids_match);
    // Today's accuracy (docs/validation.md, h100 with issue_model: queue, the loops' latency
    // derived from their chains on the preset): spans median |error| 17.2%, max 69.9% (the
    // calibration factor is 1.41); event times median 29.5%, max 60.2%; 381 blocks on another SM
    // over the 32 timelines.
    CHECK(s.median_abs_span_error_percent <= 18.0);
    CHECK(s.max_abs_span_error_percent <= 72.0);
    CHECK(s.median_abs_event_error_percent <= 31.0);
    CHECK(s.max_abs_event_error_percent <= 62.0);
    CHECK(s.total_misplaced <= 390);
}

TEST_CASE("n x SSSP on the H100: frontier hard check, calibrated run times, shape over streams (CI subset)") {
    // CI simulates a representative subset (seconds, not the minutes of all 75 configurations):
    // the 4096-node graph with T = 256 and max-l1 on 1, 8 and 32 streams, plus the four timelines.
    // `gpusched validate validation/data/h100` runs every configuration (docs/validation.md).
    const auto subset = [](const validation::SsspConfig& c) {
        return c.graph == "n4096_d8" && c.threads == 256 && c.carveout == "max-l1" &&
               (c.streams == 1 || c.streams == 8 || c.streams == 32);
    };
    const auto s = validation::validate_sssp(kData + "sssp", hw::resolve_gpu("h100"), "most-room", subset);
    // Hard checks: the runner's per-iteration sets are the CPU reference's, and the simulated
    // applications have the runner's launch counts.
    REQUIRE(s.frontiers.size() == 2);
    for (const auto& f : s.frontiers) {
        CAPTURE(f.first_mismatch);
        CHECK(f.sources == 32);
        CHECK(f.mismatches == 0);
    }
    CHECK(s.frontiers[0].iterations + s.frontiers[1].iterations == 6830);
    CHECK(s.launches_match);
    REQUIRE(s.points.size() == 6);  // graph and direct-launch modes of three configurations
    CHECK(s.reference.graph == "n4096_d8");
    for (const auto& p : s.points)
        if (p.mode == "graph" && p.config.streams == 1) CHECK(p.error_percent == doctest::Approx(0).epsilon(1e-9));
    // Shape: more streams are faster, measured and simulated.
    REQUIRE(s.speedups.size() == 2);
    for (const auto& x : s.speedups) {
        CAPTURE(x.config.streams);
        CHECK(x.measured > 1.0);
        CHECK(x.simulated > 1.0);
    }
    // Today (docs/validation.md): C = 8 is 20.0% fast and C = 32 45.5% fast after calibration;
    // the simulated speedups 7.8x and 28.8x against the measured 6.2x and 15.7x (nothing in the
    // model limits how many launches the front end takes per microsecond across streams).
    CHECK(s.max_abs_error_graph_percent <= 47.0);
    CHECK(s.speedups[0].simulated / s.speedups[0].measured <= 1.30);
    CHECK(s.speedups[1].simulated / s.speedups[1].measured <= 1.90);
    // Direct launches are simulated as host calls (h = 3466 ns per call, from launch_rate/) and
    // calibrated at their own C = 1 run: f_stream = 1.11 (graph: 1.72). Today the subset's stream
    // errors are 0 / +15.3% / +15.2% at C = 1 / 8 / 32 (before, as graph-mode time: 86-98% off);
    // the host-bound measurement itself spreads 10-36% between repetitions here. Held above.
    CHECK(s.stream_factor == doctest::Approx(1.113).epsilon(0.02));
    for (const auto& p : s.points)
        if (p.mode == "stream") {
            CAPTURE(p.config.streams);
            CHECK(std::abs(p.error_percent) <= 18.0);
            CHECK(p.simulated_us / p.measured_us >= 0.70);  // uncalibrated: host-bound, not the graph-mode time
        }
    // Timelines, uncalibrated: the simulated graph-mode spans are 46-60% of the measured ones
    // today (per-launch spans are 0.03-0.06 us against 0.6-4.7 us measured: no latency).
    REQUIRE(s.timelines.size() == 4);
    for (const auto& t : s.timelines) {
        CAPTURE(t.name);
        CHECK(t.measured_launches.size() == t.simulated_launches.size());
        if (t.mode == "graph") CHECK(t.simulated_span_us / t.measured_span_us >= 0.45);
    }
}

TEST_CASE("SSSP frontier check: a changed recorded value is reported with its line") {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / "gpusched_sssp_frontier_check_test";
    fs::create_directories(dir);
    fs::copy_file(kData + "sssp/graph_n4096_d8.txt", dir / "graph_n4096_d8.txt", fs::copy_options::overwrite_existing);
    std::ifstream in(kData + "sssp/frontier.csv");
    std::ofstream out(dir / "frontier.csv");
    std::string line;
    int data_rows = 0;
    while (std::getline(in, line)) {
        if (line.rfind("n4096_d8,0,", 0) == 0 && ++data_rows == 3) line = "n4096_d8,0,2,3,4090,46,45,6";  // reached 45 -> 46
        if (line.empty() || line[0] == '#' || line.rfind("graph,", 0) == 0 || line.rfind("n4096_d8,0,", 0) == 0)
            out << line << "\n";
    }
    out.close();
    const auto checks = validation::check_sssp_frontiers(dir.string());
    REQUIRE(checks.size() == 1);
    CHECK(checks[0].sources == 1);
    CHECK(checks[0].mismatches == 1);
    CHECK(checks[0].first_mismatch.find(": reached 46, CPU reference 45") != std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("SpMV and SSSP run tables: errors name the file") {
    CHECK_THROWS_WITH_AS(validation::validate_spmv(kData + "sssp", hw::resolve_gpu("h100"), "most-room"),
                         doctest::Contains("runs.csv:"), InputError);
    CHECK_THROWS_AS(validation::validate_sssp(kData + "nope", hw::resolve_gpu("h100"), "most-room"), InputError);
}
