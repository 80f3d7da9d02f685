// Simulated time: integer picoseconds, never floating point; parsing and printing of durations.
#pragma once

#include <cstdint>
#include <string>

namespace gpusched {

/// Simulated time and durations, in picoseconds.
using Time = std::uint64_t;

constexpr Time kPicosecondsPerNanosecond = 1000;

/// Parses "50us", "1.5ms", "200ns", "3000ps", "2s" (a unit is required) into picoseconds,
/// exactly where the text has at most picosecond precision. Throws InputError naming `what`
/// for anything else and negative values; TimeRangeError for 2^63 ps (about 106 days) or more.
Time parse_duration(const std::string& text, const std::string& what);

/// Picoseconds as nanoseconds with exactly three decimals, e.g. 1234567 -> "1234.567".
std::string format_ns(Time ps);

/// Nanoseconds (possibly fractional, as read from a timeline CSV) to picoseconds, rounded to nearest.
Time ns_to_ps(double ns);

}  // namespace gpusched
