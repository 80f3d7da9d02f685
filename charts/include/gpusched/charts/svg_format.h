// Text and number formatting for SVG: XML escaping and locale-independent, fixed-precision numbers.
#pragma once

#include <string>
#include <string_view>

namespace gpusched::charts {

/// Escapes text for XML character data and attribute values: & < > " ' become entities.
/// Characters XML 1.0 forbids (control bytes other than tab, newline, carriage return) and
/// bytes that are not valid UTF-8 become '?', so any input gives a well-formed document.
std::string escape_xml(std::string_view text);

/// `value` with at most `decimals` decimals (0..12), trailing zeros and a trailing '.' removed,
/// never "-0"; independent of the C and C++ locales (std::to_chars). Non-finite values give "0".
///
///     format_number(12.50, 2) == "12.5"    format_number(-0.001, 2) == "0"    format_number(3, 2) == "3"
std::string format_number(double value, int decimals);

/// A tick label for `value` on an axis whose ticks are `step` apart: as many decimals as the
/// step needs (20 -> "40", 0.25 -> "0.75"); magnitudes of 10^7 and more, or below 10^-4, in
/// exponent form ("2e+07").
std::string format_tick(double value, double step);

}  // namespace gpusched::charts
