// Tests of the nice axis ticks (1-2-5 linear steps, log decades).
#include <stdexcept>
#include <vector>

#include <doctest/doctest.h>

#include "gpusched/charts/axis_ticks.h"

using gpusched::charts::linear_ticks;
using gpusched::charts::log_ticks;

namespace {
std::vector<double> ticks(double lo, double hi, int target = 6) { return linear_ticks(lo, hi, target).values; }
}  // namespace

TEST_CASE("linear ticks for known ranges") {
    CHECK(ticks(0, 97) == std::vector<double>{0, 20, 40, 60, 80, 100});
    CHECK(ticks(50, 100) == std::vector<double>{50, 60, 70, 80, 90, 100});
    CHECK(ticks(4000, 4050) == std::vector<double>{4000, 4010, 4020, 4030, 4040, 4050});
    CHECK(ticks(0, 100) == std::vector<double>{0, 20, 40, 60, 80, 100});
    CHECK(ticks(-3, 3) == std::vector<double>{-3, -2, -1, 0, 1, 2, 3});
    CHECK(ticks(-3, 7) == std::vector<double>{-4, -2, 0, 2, 4, 6, 8});
    CHECK(ticks(0, 1e6) == std::vector<double>{0, 200000, 400000, 600000, 800000, 1000000});
    const auto a = linear_ticks(0.1, 0.7);
    CHECK(a.step == doctest::Approx(0.1));
    CHECK(a.values.size() == 7);
    CHECK(a.values.front() == doctest::Approx(0.1));
    CHECK(a.values.back() == doctest::Approx(0.7));
}

TEST_CASE("linear ticks: the axis covers the data with whole steps") {
    const auto a = linear_ticks(23.7, 61.2);
    CHECK(a.lo <= 23.7);
    CHECK(a.hi >= 61.2);
    CHECK(a.step == 10);
    CHECK(a.values == std::vector<double>{20, 30, 40, 50, 60, 70});
}

TEST_CASE("linear ticks: degenerate and bad ranges") {
    const auto zero = linear_ticks(0, 0);
    CHECK(zero.lo == 0);
    CHECK(zero.hi == doctest::Approx(1));
    CHECK(zero.values.size() == 6);
    const auto one = linear_ticks(5, 5);
    CHECK(one.lo < 5);
    CHECK(one.hi > 5);
    CHECK(ticks(97, 0) == ticks(0, 97));
    CHECK(linear_ticks(1e17, 1e17 + 16).values.size() >= 2);
    CHECK_THROWS_AS(linear_ticks(0, 1.0 / 0.0), std::invalid_argument);
    CHECK_THROWS_AS(linear_ticks(-1e308, 1e308), std::invalid_argument);
    CHECK_THROWS_AS(linear_ticks(0, 1, 0), std::invalid_argument);
}

TEST_CASE("log ticks") {
    CHECK(log_ticks(3, 70).values == std::vector<double>{1, 2, 5, 10, 20, 50, 100});
    CHECK(log_ticks(1, 1e6).values == std::vector<double>{1, 10, 100, 1000, 10000, 100000, 1000000});
    const auto wide = log_ticks(1, 1e20);
    CHECK(wide.step == 3);
    CHECK(wide.values.size() == 8);
    CHECK(wide.hi >= 1e20);
    CHECK(log_ticks(10, 10).values == std::vector<double>{10, 20, 50, 100});
    CHECK_THROWS_AS(log_ticks(0, 10), std::invalid_argument);
    CHECK_THROWS_AS(log_ticks(-1, 10), std::invalid_argument);
}
