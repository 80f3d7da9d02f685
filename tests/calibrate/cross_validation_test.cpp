// Cross-validation splits are deterministic functions of the keys; error statistics by hand.
#include <doctest/doctest.h>

#include <cmath>

#include "gpusched/calibrate/cross_validation.h"
#include "gpusched/support/input_error.h"

using namespace gpusched::calibrate;
using Indices = std::vector<std::size_t>;

TEST_CASE("leave one group out: one split per key value, ascending") {
    const auto s = leave_one_group_out({64, 32, 64, 128, 32}, "threads");
    REQUIRE(s.size() == 3);
    CHECK(s[0].name == "threads=32 held out");
    CHECK(s[0].test == Indices{1, 4});
    CHECK(s[0].train == Indices{0, 2, 3});
    CHECK(s[2].test == Indices{3});
    CHECK(leave_one_group_out({5, 5}, "x").empty());
}

TEST_CASE("extrapolation split: train on keys up to the limit") {
    const Split s = extrapolation_split({100, 2000, 40, 140}, 140, "n");
    CHECK(s.train == Indices{0, 2, 3});
    CHECK(s.test == Indices{1});
    CHECK(s.name == "n <= 140 -> n > 140");
    CHECK_THROWS_AS(extrapolation_split({1, 2}, 5, "n"), gpusched::InputError);
}

TEST_CASE("interleaved folds: sorted by key, i-th point in fold i mod k; every point tested once") {
    const auto f = interleaved_folds({50, 10, 40, 20, 30}, 2, "n");
    REQUIRE(f.size() == 2);
    // order by key: 10 (1), 20 (3), 30 (4), 40 (2), 50 (0) -> fold 1: 1, 4, 0; fold 2: 3, 2.
    CHECK(f[0].test == Indices{0, 1, 4});
    CHECK(f[0].train == Indices{2, 3});
    CHECK(f[1].test == Indices{2, 3});
    CHECK(interleaved_folds({1, 2}, 3, "n").empty());
}

TEST_CASE("error statistics of signed percentages") {
    const ErrorStats s = error_stats({-3, 4, 1, -2});
    CHECK(s.count == 4);
    CHECK(s.median_abs == doctest::Approx(2.5));
    CHECK(s.max_abs == 4);
    CHECK(s.rms == doctest::Approx(std::sqrt(30.0 / 4)));
    CHECK(error_percent(110, 100) == doctest::Approx(10));
}
