// The readable time unit of a chart axis: the largest of ns, us, ms, s in which the largest value is at least 1.
#include <cmath>
#include <limits>

#include <doctest/doctest.h>

#include "gpusched/charts/time_unit.h"

using namespace gpusched::charts;

TEST_CASE("the axis unit is the largest in which the largest value is at least one") {
    CHECK(readable_time_unit(999).name == "ns");       // 999 ns < 1 us
    CHECK(readable_time_unit(1000).name == "us");      // exactly 1 us
    CHECK(readable_time_unit(1500).nanoseconds == 1e3);
    CHECK(readable_time_unit(2.5e7).name == "ms");     // 25 ms
    CHECK(readable_time_unit(2.5e7).nanoseconds == 1e6);
    CHECK(readable_time_unit(999'999).name == "us");   // 999.999 us
    CHECK(readable_time_unit(3e9).name == "s");
    CHECK(readable_time_unit(3e12).name == "s");       // no unit above seconds: 3000 s
    CHECK(readable_time_unit(0).name == "ns");
    CHECK(readable_time_unit(-5e6).name == "ns");      // a magnitude is asked for; a negative one is not
    CHECK(readable_time_unit(std::nan("")).name == "ns");
    CHECK(readable_time_unit(std::numeric_limits<double>::infinity()).name == "ns");
}
