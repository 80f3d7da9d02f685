// Replays every measured H100 placement timeline with the h100 preset; CI holds today's accuracy.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/support/input_error.h"
#include "gpusched/validation/measured_timeline.h"
#include "experiments/placement/comparison.h"
#include "../support/csv_table.h"
#include "../support/sim_fixtures.h"

using namespace gpusched;

namespace {

const std::string kDir = std::string(GPUSCHED_SOURCE_DIR) + "/validation/data/h100/placement";

/// Today's accuracy (docs/validation.md): every case within 0.25% of the measured span but
/// tiny32, 20,000 1 us blocks whose refills the 182 ns dispatch latency and the completion
/// channel pace (-1.85%; -2.86% when the latency was 50 ns + the SM's launch time).
double span_tolerance_percent(const std::string& name) {
    if (name == "tiny32") return 2.0;
    return 0.25;
}

/// Sum over cases of blocks that must move to another SM to match the measured per-SM counts
/// with policy `walk` (today 328: 71 in tiny32, whose refills the completion sweep orders (361
/// first come, first served), 256 in the other tie-prone cases, where refills are decided by
/// end times within one 32 ns %globaltimer step; 1 in the two staggered cases, whose end order
/// is unambiguous; most-room had 903; docs/validation.md).
constexpr int kMaxTotalMisplaced = 340;

}  // namespace

TEST_CASE("replayed H100 placement cases: kernel span and per-SM block counts") {
    const auto results = validation::validate_placement(kDir, hw::resolve_gpu("h100"), "walk");
    CHECK(results.size() >= 25);
    int exact = 0;
    int misplaced = 0;
    int within_h100_spread = 0;
    std::string table = "\ncase          measured_us  simulated_us  error_%  misplaced_blocks\n";
    for (const auto& r : results) {
        CAPTURE(r.name);
        CHECK(std::abs(r.error_percent) <= span_tolerance_percent(r.name));
        exact += r.misplaced == 0 ? 1 : 0;
        // Every block ends >= 0.5 us from the others, so the end order is unambiguous: today 0 and
        // 1 (stagger1356_bs256: a refill whose measured gaps spread 128-224 ns around the 182 ns
        // latency starts on the next SM's slot instead).
        if (r.name.starts_with("stagger")) CHECK(r.misplaced <= 1);
        // tiny32: the completion sweep gives rows G and H 3/18 of a visit (measured 139-145 blocks
        // on their SMs, 152-159 elsewhere); first come, first served had 361.
        if (r.name == "tiny32") CHECK(r.misplaced <= 80);
        // The H100's own spread: 10 repetitions of the case in a later run (placement_reps/),
        // each compared with the committed timeline like the simulation is.
        REQUIRE(r.repetition_distances.size() == 10);
        const int h100_max = *std::max_element(r.repetition_distances.begin(), r.repetition_distances.end());
        within_h100_spread += r.misplaced <= h100_max ? 1 : 0;
        misplaced += r.misplaced;
        char line[160];
        std::snprintf(line, sizeof line, "%-12s %12.3f %13.3f %8.2f %17d\n", r.name.c_str(), r.measured_us,
                      r.simulated_us, r.error_percent, r.misplaced);
        table += line;
    }
    MESSAGE(table);
    CHECK(misplaced <= kMaxTotalMisplaced);
    CHECK(exact >= 12);  // today: every single-wave case and stagger397_bs1024 (docs/validation.md)
    // Today all 29: the replay is no farther from the measured run than some H100 repetition
    // is (before the completion sweep: 27, tiny32 361 blocks against the repetitions' 75..111).
    CHECK(within_h100_spread == 29);
}

TEST_CASE("walk: the first wave of every measured launch, block for block") {
    // Only launch 0's start (row, lead) is read off the data (blocks 0 and 8); later launches
    // of b2b132x5 start where the walk rule moves them. The first wave is every block that
    // started before the launch's first block ended (no refill can precede it).
    const auto results = validation::validate_placement(kDir, hw::resolve_gpu("h100"), "walk", true);
    std::size_t compared = 0;
    for (const auto& r : results) {
        CAPTURE(r.name);
        std::map<std::pair<std::uint64_t, std::uint64_t>, int> simulated;
        for (const auto& b : r.simulated_blocks) simulated[{b.launch, b.block}] = b.sm;
        std::map<std::uint64_t, Time> first_end;
        for (const auto& b : r.measured_blocks) {
            auto [it, fresh] = first_end.try_emplace(b.launch, b.end);
            if (!fresh) it->second = std::min(it->second, b.end);
        }
        int wrong = 0;
        for (const auto& b : r.measured_blocks) {
            if (b.start >= first_end[b.launch]) continue;
            ++compared;
            wrong += simulated.at({b.launch, b.block}) != b.sm ? 1 : 0;
        }
        CHECK(wrong == 0);
    }
    CHECK(compared == 34320);  // every first-wave block of the 33 launches
}

TEST_CASE("malformed measured timelines are input errors naming file and line") {
    const std::string dir = std::string(GPUSCHED_SOURCE_DIR) + "/tests/workloads/data/";
    CHECK_THROWS_WITH_AS(validation::read_measured_timeline(dir + "replay_missing_column.csv"),
                         doctest::Contains("replay_missing_column.csv:"), InputError);
    CHECK_THROWS_WITH_AS(validation::read_measured_timeline(dir + "replay_end_before_start.csv"),
                         doctest::Contains("replay_end_before_start.csv:3: end_ns 19.5 is before start_ns 20"), InputError);
    CHECK(validation::read_measured_timeline(dir + "replay_plain.csv").blocks.size() > 0);
    CHECK_THROWS_AS(validation::read_measured_timeline(dir + "nope.csv"), InputError);
    CHECK_THROWS_AS(validation::validate_placement(dir + "nope", hw::resolve_gpu("h100"), "most-room"), InputError);
}

TEST_CASE("walk: every grid size of the walk-state experiment, block for block") {
    // One launch per (blocks, threads) of validation/data/h100/walk_state (1..2,000 blocks of 32,
    // 256 or 1024 threads), with its measured start (lead_start from block 0, start_row from
    // block 8), written from maps.csv.gz by validation/scripts/extract-first-waves.py.
    // Grids under one block per SM exercise the quota rule (lead, then one SM per TPC).
    const auto table = test::read_csv_table(std::string(GPUSCHED_SOURCE_DIR) +
                                            "/tests/validation/data/walk_state_first_waves.csv");
    REQUIRE(table.rows.size() == 36);
    for (const auto& row : table.rows) {
        const auto blocks = std::stoull(row[table.column("blocks")]);
        const int threads = std::stoi(row[table.column("threads")]);
        CAPTURE(blocks);
        CAPTURE(threads);
        hw::GpuSpec gpu = hw::resolve_gpu("h100");
        gpu.dispatch_walk->lead_start = std::stoi(row[table.column("lead_start")]);
        gpu.dispatch_walk->start_row = std::stoi(row[table.column("start_row")]);
        workloads::KernelLaunch k;
        k.grid.x = static_cast<std::uint32_t>(blocks);
        k.block.x = static_cast<std::uint32_t>(threads);
        k.work = std::make_shared<test::LambdaWork>([](std::uint64_t) { return Time{1'000'000'000}; });
        const auto r = test::run(gpu, test::app_of({k}), "walk");
        std::map<std::uint64_t, int> simulated;
        for (const auto& b : r.blocks) simulated[b.block] = b.sm;
        std::string measured = row[table.column("sms")], wrong;
        std::uint64_t block = 0;
        for (std::size_t at = 0; at <= measured.size(); ++block) {
            const std::size_t end = std::min(measured.find(';', at), measured.size());
            const int sm = std::stoi(measured.substr(at, end - at));
            if (simulated.at(block) != sm && wrong.empty())
                wrong = "block " + std::to_string(block) + ": measured SM " + std::to_string(sm) + ", simulated " +
                        std::to_string(simulated.at(block));
            at = end + 1;
        }
        CHECK_MESSAGE(wrong.empty(), wrong);
    }
}

TEST_CASE("a malformed placement_reps/rep_counts.csv is an input error naming it") {
    namespace fs = std::filesystem;
    const fs::path root = fs::temp_directory_path() / "gpusched_rep_counts_test";
    fs::remove_all(root);
    fs::create_directories(root / "placement");
    fs::create_directories(root / "placement_reps");
    fs::copy_file(kDir + "/wave132.csv", root / "placement" / "wave132.csv");
    {
        std::ofstream bad(root / "placement_reps" / "rep_counts.csv");
        bad << "case,rep,launch,sm,blocks\nwave132,0,0,x,1\n";
    }
    CHECK_THROWS_WITH_AS(validation::validate_placement((root / "placement").string(), hw::resolve_gpu("h100"), "walk"),
                         doctest::Contains("rep_counts.csv:2"), InputError);
    fs::remove_all(root);
}
