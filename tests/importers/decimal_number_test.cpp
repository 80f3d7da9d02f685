// scaled_decimal: exact decimal text times a power of ten, rounded half away from zero, nullopt outside int64.
#include <doctest/doctest.h>

#include "gpusched/importers/decimal_number.h"

using gpusched::importers::scaled_decimal;

TEST_CASE("scaled_decimal converts trace microseconds to nanoseconds and picoseconds exactly") {
    CHECK(scaled_decimal("1234.567", 3) == 1234567);          // us -> ns
    CHECK(scaled_decimal("1234.567", 6) == 1234567000);       // us -> ps
    CHECK(scaled_decimal("1764000000000000.125", 3) == 1764000000000000125);  // epoch us: 19 digits, no binary rounding
    CHECK(scaled_decimal("0.05", 2) == 5);
    CHECK(scaled_decimal("12", 0) == 12);
    CHECK(scaled_decimal("12.", 1) == 120);
    CHECK(scaled_decimal(".5", 0) == 1);                      // halves round away from zero
    CHECK(scaled_decimal("-.5", 0) == -1);
    CHECK(scaled_decimal("0.49999", 0) == 0);
    CHECK(scaled_decimal("1.5e3", 0) == 1500);
    CHECK(scaled_decimal("2E-4", 6) == 200);
    CHECK(scaled_decimal("1234.5675", 3) == 1234568);
    CHECK(scaled_decimal("0e99999", 0) == 0);
    CHECK(scaled_decimal("5e-400", 0) == 0);
    CHECK(scaled_decimal("9223372036854775807", 0) == INT64_MAX);
    CHECK(scaled_decimal("-9223372036854775808", 0) == INT64_MIN);
}

TEST_CASE("scaled_decimal refuses what is not a decimal number or does not fit") {
    CHECK_FALSE(scaled_decimal("9223372036854775808", 0));
    CHECK_FALSE(scaled_decimal("1e19", 0));
    CHECK_FALSE(scaled_decimal("1e99999", 0));
    CHECK_FALSE(scaled_decimal("", 0));
    CHECK_FALSE(scaled_decimal("-", 0));
    CHECK_FALSE(scaled_decimal(".", 0));
    CHECK_FALSE(scaled_decimal("1e", 0));
    CHECK_FALSE(scaled_decimal("1,000", 0));
    CHECK_FALSE(scaled_decimal("0x10", 0));
    CHECK_FALSE(scaled_decimal(" 1", 0));
    CHECK_FALSE(scaled_decimal("nan", 0));
}
