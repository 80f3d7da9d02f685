// Sweeps and merging: identical output for any thread count; shards merged equal the whole; merge errors.
#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>

#include "gpusched/support/input_error.h"
#include "gpusched/sweep/results_file.h"
#include "gpusched/sweep/sweep_runner.h"
#include "sweep/study_fixtures.h"

using namespace gpusched;

namespace {
std::string run(const sweep::Study& s, unsigned threads, sweep::Shard shard = {}) {
    sweep::SweepOptions o;
    o.threads = threads;
    o.shard = shard;
    std::ostringstream out;
    sweep::run_sweep(s, o, out);
    return out.str();
}
std::vector<sweep::ResultsPart> shards(const sweep::Study& s, std::uint64_t n) {
    std::vector<sweep::ResultsPart> parts;
    for (std::uint64_t i = 0; i < n; ++i) parts.push_back({"part" + std::to_string(i) + ".csv", run(s, 2, {i, n})});
    return parts;
}
}  // namespace

TEST_CASE("results are byte-identical for any thread count, and invalid points report their error") {
    const auto s = test::study_from(test::kMixedStudy);
    const std::string one = run(s, 1);
    CHECK(run(s, 2) == one);
    CHECK(run(s, 5) == one);
    CHECK(one.starts_with("# gpusched sweep results\n# study mixed digest "));
    CHECK(one.find("\npoint,gpu,policy,exec,workload,threads,blocks,sm_count,execution.clock_mhz,execution,makespan_ns,") !=
          std::string::npos);
    CHECK(one.find("\n6,c2075,most-room,auto,syn,2048,4,,,,,") != std::string::npos);
    CHECK(one.find("1024 threads per block") != std::string::npos);
    CHECK(one.find("\n7,c2075,round-robin,auto,syn,128,20,7,,fixed,") != std::string::npos);
}

TEST_CASE("merged shards are byte-identical to the one-process sweep, in any order") {
    const auto s = test::study_from(test::kMixedStudy);
    const std::string whole = run(s, 1);
    for (std::uint64_t n : {1ULL, 2ULL, 3ULL, 20ULL}) {
        auto parts = shards(s, n);
        std::reverse(parts.begin(), parts.end());
        CHECK(sweep::merge_results(parts) == whole);
    }
}

TEST_CASE("merge refuses missing, repeated and foreign parts") {
    const auto s = test::study_from(test::kMixedStudy);
    auto parts = shards(s, 3);
    CHECK_THROWS_WITH_AS(sweep::merge_results({parts[0], parts[2]}), doctest::Contains("shard 1/3 is missing"), InputError);
    CHECK_THROWS_WITH_AS(sweep::merge_results({parts[0], parts[1], parts[1], parts[2]}),
                         doctest::Contains("part1.csv: shard 1/3 is also part1.csv"), InputError);
    CHECK_THROWS_WITH_AS(sweep::merge_results({parts[0], {"half.csv", run(s, 1, {1, 2})}, parts[2]}),
                         doctest::Contains("half.csv: shard 1/2 of a sweep split 2 ways"), InputError);
    std::string other = test::kMixedStudy;
    other.replace(other.find("seed: 11"), 8, "seed: 12");
    auto foreign = shards(test::study_from(other), 3);
    CHECK_THROWS_WITH_AS(sweep::merge_results({parts[0], foreign[1], parts[2]}),
                         doctest::Contains("part1.csv: from another study"), InputError);
    CHECK_THROWS_WITH_AS(sweep::merge_results({{"x.csv", "a,b\n1,2\n"}}),
                         doctest::Contains("x.csv:1: not a gpusched sweep results file"), InputError);
    auto truncated = parts;
    truncated[1].text.erase(truncated[1].text.rfind('\n', truncated[1].text.size() - 2) + 1);
    CHECK_THROWS_WITH_AS(sweep::merge_results(truncated), doctest::Contains("is missing (an unfinished shard?)"), InputError);
    auto moved = parts;
    const auto row = moved[1].text.find("\n1,");
    moved[0].text += moved[1].text.substr(row + 1, moved[1].text.find('\n', row + 1) - row);
    CHECK_THROWS_WITH_AS(sweep::merge_results(moved), doctest::Contains("part0.csv:"), InputError);
    CHECK_THROWS_WITH_AS(sweep::merge_results(moved), doctest::Contains("does not belong to shard 0/3"), InputError);
}

TEST_CASE("more points than the reorder window: rows still come out in order, the same for any -j") {
    const auto s = test::study_from(R"(study: wide
workloads: {w: "synthetic:threads=32,duration=1us"}
points:
  - grid: {blocks: {from: 1, to: 2100}}
)");
    const std::string one = run(s, 1);
    CHECK(run(s, 2) == one);
    CHECK(one.find("\n1000,h100,most-room,auto,w,1001,fixed,") != std::string::npos);
    CHECK(std::count(one.begin(), one.end(), '\n') == 2100 + 3);
}
