// Checked time arithmetic: conversions from doubles and the messages of a time past the range.
#include "gpusched/support/checked_time.h"

#include <cmath>

namespace gpusched {

std::string time_limit_text() { return "2^63 ps (about 106 days), the range of simulated time"; }

std::optional<Time> time_from_ps(double ps) {
    if (!(ps >= 0)) return std::nullopt;  // also NaN
    const double rounded = std::round(ps);
    if (!(rounded < 9223372036854775808.0)) return std::nullopt;  // 2^63, also infinity
    return static_cast<Time>(rounded);
}

void throw_time_overflow(const std::string& what, const std::string& detail) {
    throw TimeRangeError(what + ": " + detail + " passes " + time_limit_text());
}

void throw_time_sum_overflow(const std::string& what, Time a, Time b) {
    throw_time_overflow(what, format_ns(a) + " ns + " + format_ns(b) + " ns");
}

void throw_time_product_overflow(const std::string& what, Time a, std::uint64_t n) {
    throw_time_overflow(what, std::to_string(n) + " x " + format_ns(a) + " ns");
}

}  // namespace gpusched
