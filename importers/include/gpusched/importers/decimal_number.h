// Exact decimal numbers ("1234.567", "1.5e3") scaled by a power of ten into a rounded 64-bit integer.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace gpusched::importers {

/// The value of the decimal `text` times 10^scale, rounded to nearest (halves away from zero),
/// or nullopt when `text` is not a decimal number or the result is outside the int64 range.
/// Accepted: an optional sign, digits with an optional fraction ("12", "12.", ".5", "12.50"),
/// an optional exponent ("1.5e3", "2E-4"). No blanks, no thousands separators, no hex.
/// Exact however many digits are given: scaled_decimal("1234.5675", 3) == 1234568.
std::optional<std::int64_t> scaled_decimal(std::string_view text, int scale);

}  // namespace gpusched::importers
