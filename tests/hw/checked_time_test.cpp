// Checked time arithmetic: sums, products and conversions stay below 2^63 ps or say so.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

#include "gpusched/support/checked_time.h"

using namespace gpusched;

TEST_CASE("time_sum and time_product stay below 2^63 ps, whatever the operands") {
    constexpr Time max = kTimeLimit - 1;  // 9223372036854775807 ps, the last representable instant
    CHECK(time_sum(max - 5, 5) == max);
    CHECK_FALSE(time_sum(max, 1));
    // 2^63 + 2^63 wraps to 0 in 64 bits: still refused.
    CHECK_FALSE(time_sum(kTimeLimit, kTimeLimit));
    CHECK_FALSE(time_sum(std::numeric_limits<Time>::max(), 1));
    CHECK(time_product(Time{1} << 31, Time{1} << 31) == Time{1} << 62);
    CHECK_FALSE(time_product(Time{1} << 31, Time{1} << 32));  // 2^63
    CHECK_FALSE(time_product(Time{1} << 40, Time{1} << 40));  // 2^80 wraps to 0 in 64 bits
    CHECK(time_product(0, std::numeric_limits<std::uint64_t>::max()) == 0);
}

TEST_CASE("time_from_ps refuses what is not a time in range") {
    CHECK(time_from_ps(1.5) == 2);
    CHECK(time_from_ps(0) == 0);
    CHECK_FALSE(time_from_ps(-1));
    CHECK_FALSE(time_from_ps(std::nan("")));
    CHECK_FALSE(time_from_ps(std::numeric_limits<double>::infinity()));
    CHECK_FALSE(time_from_ps(9223372036854775808.0));  // 2^63
    CHECK(time_from_ps(9.2e18) == Time{9200000000000000000});
}

TEST_CASE("checked sums and products throw a TimeRangeError naming what, built only on failure") {
    int built = 0;
    const auto what = [&] {
        ++built;
        return std::string("launch 3 (copy 'x')");
    };
    CHECK(checked_time_sum(1, 2, what) == 3);
    CHECK(checked_time_product(4, 5, what) == 20);
    CHECK(built == 0);
    CHECK_THROWS_WITH_AS(checked_time_sum(kTimeLimit - 1000, 1000, what),
                         "launch 3 (copy 'x'): 9223372036854774.808 ns + 1.000 ns passes 2^63 ps (about 106 days), "
                         "the range of simulated time",
                         TimeRangeError);
    CHECK_THROWS_WITH_AS(checked_time_product(1000, Time{1} << 60, what),
                         doctest::Contains("launch 3 (copy 'x'): 1152921504606846976 x 1.000 ns passes 2^63 ps"),
                         InputError);
    CHECK(built == 2);
}

TEST_CASE("parse_duration: up to 2^63 - 1 ps; 2^63 and beyond name the key and the range") {
    CHECK(parse_duration("9223372036854775807ps", "d") == kTimeLimit - 1);
    CHECK_THROWS_WITH_AS(parse_duration("9223372036854775808ps", "key 'delay'"),
                         "key 'delay': '9223372036854775808ps' reaches 2^63 ps (about 106 days), the range of simulated "
                         "time",
                         TimeRangeError);
    CHECK_THROWS_AS(parse_duration("9223373s", "d"), TimeRangeError);
    CHECK(parse_duration("9223372s", "d") == Time{9223372000000000000});
}
