// Measured-data readers check their metadata against their rows and refuse a file cut mid-row.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/support/input_error.h"
#include "experiments/curves/comparison.h"
#include "gpusched/validation/measured_timeline.h"

namespace gpusched {

namespace {

/// Writes `text` to a fresh file in the temporary directory; returns its path.
std::string temp_file(const std::string& name, const std::string& text) {
    const auto dir = std::filesystem::temp_directory_path() / "gpusched-measured-metadata-test";
    std::filesystem::create_directories(dir);
    const std::string path = (dir / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

std::string timeline_error(const std::string& name, const std::string& text) {
    try {
        (void)validation::read_measured_timeline(temp_file(name, text));
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

// Line 1: sm_count, line 2: launch 0's blocks, line 3: the header; rows from line 4.
const std::string kHead = "# sm_count=4\n# launch.0=k blocks=3 threads=32 stream=0\nkernel,launch,block,sm,start_ns,end_ns\n";

}  // namespace

TEST_CASE("a timeline whose rows match its metadata reads") {
    const std::string text = kHead + "k,0,0,0,0,10\nk,0,1,1,0,10\nk,0,2,3,10,20\n";
    CHECK(timeline_error("ok.csv", text).empty());
    CHECK(validation::read_measured_timeline(temp_file("ok.csv", text)).blocks.size() == 3);
}

TEST_CASE("a timeline with fewer rows than its metadata promises names the file, its last line and the metadata line") {
    // 3 blocks promised by line 2, 2 rows (lines 4-5): the file was cut between rows.
    const std::string message = timeline_error("short.csv", kHead + "k,0,0,0,0,10\nk,0,1,1,0,10\n");
    CHECK(message.find("short.csv:5: the rows end with 2 blocks of launch 0, but line 2 ('# launch.0=... blocks=...') "
                       "says 3") != std::string::npos);
}

TEST_CASE("a timeline cut mid-row is refused even when the cut row still parses") {
    // "k,0,2,3,10,2" is a complete-looking row whose end_ns lost a digit: only the missing line
    // break tells.
    CHECK(timeline_error("cut.csv", kHead + "k,0,0,0,0,10\nk,0,1,1,0,10\nk,0,2,3,10,2")
              .find("cut.csv:6: the last line ends without a line break") != std::string::npos);
}

TEST_CASE("rows that contradict the metadata: SM, launch, block beyond, block twice") {
    CHECK(timeline_error("sm.csv", kHead + "k,0,0,4,0,10\n").find("sm.csv:4: SM 4 does not exist: line 1") !=
          std::string::npos);
    CHECK(timeline_error("launch.csv", kHead + "k,1,0,0,0,10\n").find("launch.csv:4: launch 1 is not in the metadata") !=
          std::string::npos);
    CHECK(timeline_error("beyond.csv", kHead + "k,0,3,0,0,10\n").find("beyond.csv:4: block 3 of launch 0 is beyond the 3 "
                                                                      "blocks of line 2") != std::string::npos);
    CHECK(timeline_error("twice.csv", kHead + "k,0,0,0,0,10\nk,0,0,1,0,10\n").find("twice.csv:5: block 0 of launch 0 is "
                                                                                    "listed twice") != std::string::npos);
}

TEST_CASE("blocks_per_launch x launches (APSP timelines) and launches alone (SSSP) are checked too") {
    const std::string head = "# blocks_per_launch=2\n# launches=2\nkernel,launch,block,sm,start_ns,end_ns\n";
    CHECK(timeline_error("apsp.csv", head + "k,0,0,0,0,1\nk,0,1,0,1,2\nk,1,0,0,2,3\nk,1,1,0,3,4\n").empty());
    CHECK(timeline_error("apsp_short.csv", head + "k,0,0,0,0,1\nk,0,1,0,1,2\nk,1,0,0,2,3\n")
              .find("the rows end with 1 blocks of launch 1, but line 1 ('# blocks_per_launch=') with line 2") !=
          std::string::npos);
    const std::string sssp = "# launches=2\nkernel,launch,block,sm,start_ns,end_ns\n";
    CHECK(timeline_error("sssp.csv", sssp + "k,0,0,0,0,1\nk,1,0,0,1,2\nk,1,1,0,1,2\n").empty());
    CHECK(timeline_error("sssp_bad.csv", sssp + "k,2,0,0,0,1\n").find("sssp_bad.csv:3: launch 2 is beyond the 2 "
                                                                      "launches of line 1") != std::string::npos);
}

TEST_CASE("a measured time past the range of simulated time is refused, not read as 0") {
    CHECK(timeline_error("huge.csv", "kernel,launch,block,sm,start_ns,end_ns\nk,0,0,0,0,1e19\n")
              .find("huge.csv:2: column 'end_ns': 1e19 ns passes 2^63 ps") != std::string::npos);
}

TEST_CASE("a curve CSV cut mid-row or with a short row names the file and line") {
    const std::string head = "algorithm,n,block,launches,reps,median_ms,min_ms,max_ms,checked\n";
    // The last row lost its line break (and perhaps digits of median_ms).
    const std::string cut = temp_file("curve_cut.csv", head + "fw,64,16,64,10,0.22315,0.20093,0.23875,1\nfw,65,16,65,10,0.2");
    CHECK_THROWS_WITH_AS(validation::validate_apsp_curves(cut, hw::resolve_gpu("h100"), "most-room"),
                         doctest::Contains("curve_cut.csv:3: the last line ends without a line break"), InputError);
    // A row with fewer fields than the header, though the needed ones are there.
    const std::string short_row = temp_file("curve_short.csv", head + "fw,64,16,64,10,0.22315\n");
    CHECK_THROWS_WITH_AS(validation::validate_apsp_curves(short_row, hw::resolve_gpu("h100"), "most-room"),
                         doctest::Contains("curve_short.csv:2: ragged row: 6 fields, but the header has 9"), InputError);
}

}  // namespace gpusched
