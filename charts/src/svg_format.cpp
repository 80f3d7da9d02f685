// XML escaping and locale-independent number formatting for the SVG writers.
#include "gpusched/charts/svg_format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>

namespace gpusched::charts {

namespace {

/// Length of the valid UTF-8 sequence starting at text[i], or 0 if it is not one.
std::size_t utf8_length(std::string_view text, std::size_t i) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    std::size_t length = 0;
    std::uint32_t code = 0;
    if (lead >= 0xc2 && lead <= 0xdf) {
        length = 2;
        code = lead & 0x1fU;
    } else if (lead >= 0xe0 && lead <= 0xef) {
        length = 3;
        code = lead & 0x0fU;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
        length = 4;
        code = lead & 0x07U;
    } else {
        return 0;
    }
    if (i + length > text.size()) return 0;
    for (std::size_t k = 1; k < length; ++k) {
        if ((byte(i + k) & 0xc0U) != 0x80U) return 0;
        code = (code << 6U) | (byte(i + k) & 0x3fU);
    }
    const bool overlong = (length == 3 && code < 0x800) || (length == 4 && code < 0x10000);
    const bool surrogate = code >= 0xd800 && code <= 0xdfff;
    const bool forbidden = code == 0xfffe || code == 0xffff || code > 0x10ffff;
    return overlong || surrogate || forbidden ? 0 : length;
}

}  // namespace

std::string escape_xml(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x80) {
            const std::size_t length = utf8_length(text, i);
            if (length == 0) {
                out += '?';
                ++i;
            } else {
                out.append(text.substr(i, length));
                i += length;
            }
            continue;
        }
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&apos;"; break;
            case '\t':
            case '\n':
            case '\r': out += static_cast<char>(c); break;
            default: out += (c < 0x20 || c == 0x7f) ? '?' : static_cast<char>(c);
        }
        ++i;
    }
    return out;
}

std::string format_number(double value, int decimals) {
    if (!std::isfinite(value)) return "0";
    decimals = std::clamp(decimals, 0, 12);
    char buf[64];
    const auto result = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed, decimals);
    if (result.ec != std::errc{}) return "0";
    std::string out(buf, result.ptr);
    if (out.find('.') != std::string::npos) {
        while (out.back() == '0') out.pop_back();
        if (out.back() == '.') out.pop_back();
    }
    if (out == "-0") out = "0";
    return out;
}

std::string format_tick(double value, double step) {
    const double magnitude = std::fabs(value);
    if (magnitude >= 1e7 || (magnitude > 0 && magnitude < 1e-4)) {
        char buf[64];
        const auto result = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific, 3);
        if (result.ec != std::errc{}) return "0";
        std::string text(buf, result.ptr);
        // Drop trailing zeros of the mantissa: 2.000e+07 -> 2e+07.
        const auto e = text.find('e');
        std::string mantissa = text.substr(0, e);
        while (mantissa.find('.') != std::string::npos && (mantissa.back() == '0' || mantissa.back() == '.')) {
            const bool dot = mantissa.back() == '.';
            mantissa.pop_back();
            if (dot) break;
        }
        return mantissa + text.substr(e);
    }
    // The fewest decimals that write the step exactly (to a millionth of itself).
    int decimals = 0;
    if (step > 0 && std::isfinite(step))
        while (decimals < 12) {
            const double scaled = step * std::pow(10.0, decimals);
            if (std::fabs(scaled - std::round(scaled)) <= 1e-6 * scaled) break;
            ++decimals;
        }
    return format_number(value, decimals);
}

}  // namespace gpusched::charts
