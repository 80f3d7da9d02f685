// Point expansion: grid product order, list entries, fixed values, seeded random draws.
#include <doctest/doctest.h>

#include <set>

#include "gpusched/support/input_error.h"
#include "gpusched/sweep/point_space.h"
#include "sweep/study_fixtures.h"

using namespace gpusched;
using gpusched::test::study_from;

namespace {
std::size_t column(const sweep::Study& s, const std::string& name) {
    for (std::size_t i = 0; i < s.params.size(); ++i)
        if (s.params[i].name == name) return i;
    FAIL("no parameter " << name);
    return 0;
}
}  // namespace

TEST_CASE("a grid is the product of its axes, the first axis varying slowest") {
    const auto s = study_from(test::kMixedStudy);
    REQUIRE(s.total_points == 13);
    const auto threads = column(s, "threads"), blocks = column(s, "blocks");
    const std::vector<std::pair<std::string, std::string>> expected = {
        {"64", "10"}, {"64", "30"}, {"64", "100"}, {"256", "10"}, {"256", "30"}, {"256", "100"}};
    for (std::size_t p = 0; p < expected.size(); ++p) {
        const auto v = sweep::point_values(s, p);
        CHECK(v[threads] == expected[p].first);
        CHECK(v[blocks] == expected[p].second);
        CHECK(v[column(s, "gpu")] == "c2075");  // fixed:
        CHECK(v[column(s, "sm_count")].empty());
    }
}

TEST_CASE("list entries give their values; fixed values fill the rest") {
    const auto s = study_from(test::kMixedStudy);
    const auto v = sweep::point_values(s, 7);
    CHECK(v[column(s, "threads")] == "128");
    CHECK(v[column(s, "sm_count")] == "7");
    CHECK(v[column(s, "policy")] == "round-robin");
    CHECK(v[column(s, "gpu")] == "c2075");
    CHECK(s.params[column(s, "sm_count")].gpu_path == "sm_count");
    CHECK(s.params[column(s, "execution.clock_mhz")].kind == sweep::ParamKind::gpu_field);
    CHECK(s.params[column(s, "blocks")].kind == sweep::ParamKind::workload_key);
}

TEST_CASE("random points are reproducible, within their ranges, and change with the seed") {
    const auto s = study_from(test::kMixedStudy);
    std::set<std::string> seen;
    for (std::uint64_t p = 8; p < 13; ++p) {
        const auto v = sweep::point_values(s, p);
        CHECK(v == sweep::point_values(s, p));
        const auto threads = v[column(s, "threads")];
        CHECK((threads == "32" || threads == "96"));
        const auto blocks = std::stoll(v[column(s, "blocks")]);
        CHECK(blocks >= 1);
        CHECK(blocks <= 500);
        const double clock = std::stod(v[column(s, "execution.clock_mhz")]);
        CHECK(clock >= 500.0);
        CHECK(clock < 1500.0);
        seen.insert(v[column(s, "blocks")]);
    }
    CHECK(seen.size() > 1);
    std::string other = test::kMixedStudy;
    other.replace(other.find("seed: 11"), 8, "seed: 12");
    const auto s2 = study_from(other);
    bool differs = false;
    for (std::uint64_t p = 8; p < 13; ++p) differs = differs || sweep::point_values(s2, p) != sweep::point_values(s, p);
    CHECK(differs);
}

TEST_CASE("SplitMix64 gives the reference sequence") {
    sweep::SplitMix64 rng(1234567);
    CHECK(rng.next() == 6457827717110365317ULL);
    CHECK(rng.next() == 3203168211198807973ULL);
}

TEST_CASE("from/to/step ranges and point counts") {
    const auto s = study_from(R"(study: r
workloads: {w: "synthetic:blocks=4,threads=32,duration=1us"}
points:
  - grid: {blocks: {from: 10, to: 20, step: 5}, threads: [32, 64]}
)");
    CHECK(s.total_points == 6);
    CHECK(sweep::point_values(s, 4)[4] == "20");
    CHECK_THROWS_WITH_AS(study_from(R"(study: r
workloads: {w: "synthetic:blocks=4,threads=32,duration=1us"}
points:
  - grid: {blocks: {from: 1, to: 100000}, threads: {from: 1, to: 1000}}
)"),
                         doctest::Contains("study.yaml:4: key 'points': the grid has more than 10000000 points"),
                         InputError);
}
