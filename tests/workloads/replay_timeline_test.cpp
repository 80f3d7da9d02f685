// Replay: loading timeline CSVs (happy paths, exact times) and every kind of bad file.
#include <doctest/doctest.h>

#include <memory>

#include "gpusched/support/input_error.h"
#include "gpusched/support/key_error.h"
#include "gpusched/workloads/replay_timeline.h"

using namespace gpusched;
using namespace gpusched::workloads;

namespace {

std::string data(const std::string& name) { return std::string(GPUSCHED_SOURCE_DIR) + "/tests/workloads/data/" + name; }

Application load(const std::string& name) { return load_replay_timeline(data(name), 128, 32, 0); }

void check_error(const std::string& name, const std::string& message) {
    CAPTURE(name);
    CHECK_THROWS_WITH_AS(load(name), (data(name) + message).c_str(), InputError);
}

}  // namespace

TEST_CASE("replay groups rows into launches by (kernel, launch) and orders blocks by id") {
    const Application app = load_replay_timeline(data("replay_two_kernels.csv"), 256, 40, 4096);
    CHECK(app.description == "replay of " + data("replay_two_kernels.csv"));
    REQUIRE(app.launches.size() == 2);
    const KernelLaunch& first = app.launches[0];
    CHECK(first.name == "first");
    CHECK(first.blocks() == 3);
    CHECK(first.threads_per_block() == 256);
    CHECK(first.registers_per_thread == 40);
    CHECK(first.dynamic_shared_bytes == 4096);
    CHECK(first.stream == 0);
    CHECK(first.work->duration(0) == 1'000'000);  // 100 -> 1100 ns
    CHECK(first.work->duration(1) == 250'000);    // 100 -> 350 ns
    CHECK(first.work->duration(2) == 0);          // 1100 -> 1100.0004 ns rounds to the same picosecond
    CHECK(first.work->describe() == "replay of 3 blocks from " + data("replay_two_kernels.csv"));
    const KernelLaunch& second = app.launches[1];
    CHECK(second.name == "second");
    CHECK(second.blocks() == 2);
    CHECK(second.work->duration(0) == 500);        // 0.5 ns
    CHECK(second.work->duration(1) == 3'000'250);  // 1200 -> 4200.25 ns
    CHECK_THROWS_AS((void)second.work->duration(2), std::out_of_range);
}

TEST_CASE("replay without kernel/launch columns is one launch named replay; integer ns stay exact") {
    const Application app = load("replay_plain.csv");
    REQUIRE(app.launches.size() == 1);
    CHECK(app.launches[0].name == "replay");
    CHECK(app.launches[0].blocks() == 3);
    CHECK(app.launches[0].work->duration(0) == 5'000);
    CHECK(app.launches[0].work->duration(1) == 4'503'599'627'370'497'000ULL);  // beyond double precision
    CHECK(app.launches[0].work->duration(2) == 20'000);
}

TEST_CASE("replay rejects bad files with PATH:LINE messages") {
    check_error("replay_empty.csv", ": empty timeline CSV (expected a header line with columns block,sm,start_ns,end_ns)");
    check_error("replay_only_metadata.csv",
                ": empty timeline CSV (expected a header line with columns block,sm,start_ns,end_ns)");
    check_error("replay_no_rows.csv", ": timeline CSV has a header but no block rows");
    check_error("replay_missing_column.csv",
                ":1: missing column 'end_ns' in the header (required: block,sm,start_ns,end_ns; optional: kernel,launch)");
    check_error("replay_non_numeric.csv", ":3: column 'start_ns': expected a number of nanoseconds, got 'abc'");
    check_error("replay_negative_sm.csv", ":3: column 'sm': negative value -3");
    check_error("replay_negative_time.csv", ":2: column 'start_ns': negative time, got '-1.5'");
    check_error("replay_end_before_start.csv", ":3: end_ns 19.5 is before start_ns 20");
    check_error("replay_duplicate_block.csv", ":4: duplicate block 0 in the timeline (first at line 2)");
    check_error("replay_missing_block.csv",
                ":4: block 3 but block 2 is missing in the timeline (its 3 rows must have block ids 0..2 once each)");
    check_error("replay_ragged.csv", ":3: ragged row: 3 fields, but the header has 4");
    check_error("replay_binary.csv", ":3: not a text timeline CSV (contains NUL bytes)");
    check_error("replay_bad_utf8.csv", ":3: not a text timeline CSV (invalid UTF-8 byte 0xff at column 8)");
    check_error("replay_control_char.csv", ":3: not a text timeline CSV (control byte 0x1b at column 8)");
    check_error("replay_unterminated_quote.csv", ":3: unterminated quote in a CSV field");
    check_error("does_not_exist.csv", ": cannot read timeline CSV: No such file or directory");
    CHECK_THROWS_WITH_AS(load_replay_timeline(data(""), 1, 0, 0), doctest::Contains("is a directory"), InputError);
}

TEST_CASE("replay limits: rows, parameters") {
    CHECK(load_replay_timeline(data("replay_four_rows.csv"), 32, 0, 0, 4).launches[0].blocks() == 4);
    CHECK_THROWS_WITH_AS(load_replay_timeline(data("replay_four_rows.csv"), 32, 0, 0, 3),
                         (data("replay_four_rows.csv") + ":5: more than 3 block rows in timeline CSV").c_str(), InputError);
    CHECK_THROWS_WITH_AS(load_replay_timeline(data("replay_plain.csv"), 0, 0, 0),
                         "replay_threads 0: threads per block of the replayed kernel: expected an integer in [1, 1048576]",
                         KeyError);
    CHECK_THROWS_WITH_AS(load_replay_timeline(data("replay_plain.csv"), 32, -1, 0),
                         doctest::Contains("replay_regs -1: registers per thread"), KeyError);
    CHECK_THROWS_WITH_AS(load_replay_timeline(data("replay_plain.csv"), 32, 0, -5),
                         doctest::Contains("replay_smem -5: dynamic shared memory bytes"), KeyError);
}

TEST_CASE("replay reads quoted fields, CRLF endings, a byte order mark and exponent times") {
    const Application app = load("replay_quoted_crlf.csv");
    REQUIRE(app.launches.size() == 1);
    CHECK(app.launches[0].name == "gemm, tiled");
    CHECK(app.launches[0].work->duration(0) == 500'000);
    CHECK(app.launches[0].work->duration(1) == 10'000);
}

TEST_CASE("replay: the launches of one file share one owner of their durations, which outlives the application") {
    // replay_two_kernels.csv: launch 0 ("first", 3 blocks) then launch 1 ("second", 2 blocks); rows interleave.
    std::shared_ptr<const BlockWork> second;
    {
        const Application app = load_replay_timeline(data("replay_two_kernels.csv"), 256, 0, 0);
        // One owner for both works (aliased shared pointers): the application holds it twice.
        CHECK(app.launches[0].work.use_count() == 2);
        CHECK(!app.launches[0].work.owner_before(app.launches[1].work));
        CHECK(!app.launches[1].work.owner_before(app.launches[0].work));
        second = app.launches[1].work;
    }
    // The application is gone; the work still reads launch 1's durations (blocks 3 and 4 of the file's 5).
    CHECK(second->duration(0) == 500);
    CHECK(second->duration(1) == 3'000'250);
    CHECK(second->describe() == "replay of 2 blocks from " + data("replay_two_kernels.csv"));
}
