// Exact decimal numbers scaled by a power of ten: digits are kept as text, so nothing is lost to binary floating point.
#include "gpusched/importers/decimal_number.h"

#include <limits>
#include <string>

namespace gpusched::importers {

std::optional<std::int64_t> scaled_decimal(std::string_view text, int scale) {
    std::size_t i = 0;
    bool negative = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
    std::string digits;  // significant digits, leading zeros dropped
    long long exponent = scale;
    bool any_digit = false, dot = false;
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (c >= '0' && c <= '9') {
            any_digit = true;
            if (!(digits.empty() && c == '0')) digits.push_back(c);
            if (dot) --exponent;
            if (digits.size() > 64) return std::nullopt;  // far beyond int64 whatever the exponent
        } else if (c == '.' && !dot) {
            dot = true;
        } else {
            break;
        }
    }
    if (!any_digit) return std::nullopt;
    if (i < text.size()) {
        if (text[i] != 'e' && text[i] != 'E') return std::nullopt;
        ++i;
        bool exp_negative = false;
        if (i < text.size() && (text[i] == '+' || text[i] == '-')) exp_negative = text[i++] == '-';
        if (i >= text.size()) return std::nullopt;
        long long e = 0;
        for (; i < text.size(); ++i) {
            if (text[i] < '0' || text[i] > '9') return std::nullopt;
            if (e < 100000) e = e * 10 + (text[i] - '0');
        }
        exponent += exp_negative ? -e : e;
    }
    // Leading zeros dropped while reading a fraction still moved the exponent: digits "5" of
    // "0.05" carry exponent -2. The value is digits x 10^exponent.
    if (digits.empty()) return 0;
    std::size_t keep = digits.size();
    bool round_up = false;
    if (exponent < 0) {
        const long long drop = -exponent;
        if (drop > static_cast<long long>(digits.size())) return 0;
        keep = digits.size() - static_cast<std::size_t>(drop);
        round_up = digits[keep] >= '5';
        exponent = 0;
    }
    if (keep + static_cast<std::size_t>(exponent) > 19) return std::nullopt;
    unsigned __int128 value = 0;
    for (std::size_t d = 0; d < keep; ++d) value = value * 10 + static_cast<unsigned>(digits[d] - '0');
    for (long long e = 0; e < exponent; ++e) value *= 10;
    if (round_up) value += 1;
    const unsigned __int128 limit = static_cast<unsigned __int128>(std::numeric_limits<std::int64_t>::max());
    if (value > limit + (negative ? 1 : 0)) return std::nullopt;
    if (negative) return value == limit + 1 ? std::numeric_limits<std::int64_t>::min() : -static_cast<std::int64_t>(value);
    return static_cast<std::int64_t>(value);
}

}  // namespace gpusched::importers
