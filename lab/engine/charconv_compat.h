// std::from_chars and std::to_chars for double where the wasm toolchain's libc++ lacks them (Debian 12's emscripten 3.1.6 ships libc++ 14).
#pragma once

#include <cctype>
#include <cerrno>
#include <cmath>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <system_error>

// Included into every engine source by lab/engine/CMakeLists.txt only when a test program shows
// that <charconv> has no floating-point overloads; the native build never sees this file.
namespace std {

/// chars_format::general parsing as the standard defines it (no leading blank, no '+', no hex):
/// the longest prefix of the form [-](digits[.digits]|.digits)[e[+-]digits], "inf", "infinity"
/// or "nan", converted by strtod in the "C" locale.
inline from_chars_result from_chars(const char* first, const char* last, double& value) {
    const char* p = first;
    if (p != last && *p == '-') ++p;
    const auto starts_with = [&](const char* word) {
        const std::size_t n = std::strlen(word);
        if (static_cast<std::size_t>(last - p) < n) return false;
        for (std::size_t i = 0; i < n; ++i)
            if (std::tolower(static_cast<unsigned char>(p[i])) != word[i]) return false;
        return true;
    };
    if (starts_with("infinity")) {
        p += 8;
    } else if (starts_with("inf")) {
        p += 3;
    } else if (starts_with("nan")) {
        p += 3;
    } else {
        const char* digits = p;
        while (p != last && std::isdigit(static_cast<unsigned char>(*p))) ++p;
        bool any = p != digits;
        if (p != last && *p == '.') {
            const char* fraction = ++p;
            while (p != last && std::isdigit(static_cast<unsigned char>(*p))) ++p;
            any = any || p != fraction;
        }
        if (!any) return {first, errc::invalid_argument};
        if (p != last && (*p == 'e' || *p == 'E')) {
            const char* q = p + 1;
            if (q != last && (*q == '+' || *q == '-')) ++q;
            const char* exponent = q;
            while (q != last && std::isdigit(static_cast<unsigned char>(*q))) ++q;
            if (q != exponent) p = q;
        }
    }
    const std::string text(first, p);
    errno = 0;
    const double parsed = std::strtod(text.c_str(), nullptr);
    // Overflow, or underflow to zero; a subnormal result is a value.
    if (errno == ERANGE && (parsed == 0 || parsed > 1e308 || parsed < -1e308)) return {p, errc::result_out_of_range};
    value = parsed;
    return {p, errc{}};
}

/// The shortest text that reads back as `value`, in fixed or scientific notation, whichever is
/// shorter (fixed on a tie), as the standard's plain to_chars(first, last, double).
inline to_chars_result to_chars(char* first, char* last, double value) {
    std::string text;
    if (value == 0 || !(value == value) || value > 1.7976931348623157e308 || value < -1.7976931348623157e308) {
        char special[32];
        std::snprintf(special, sizeof special, "%g", value);
        text = special;
    } else {
        // The fewest significant digits that read back as `value`: at each count the correctly
        // rounded digits, or the neighbour on either side (the shortest may round the other way).
        const bool negative = value < 0;
        const double magnitude = negative ? -value : value;
        std::string digits;
        int exponent = 0;
        for (int precision = 0; precision <= 17 && digits.empty(); ++precision) {
            char rounded[64];
            std::snprintf(rounded, sizeof rounded, "%.*e", precision, magnitude);
            const char* e = std::strchr(rounded, 'e');
            const int power = std::atoi(e + 1);
            std::string base;
            for (const char* c = rounded; c != e; ++c)
                if (*c != '.') base += *c;
            const long long n = std::atoll(base.c_str());
            double best_error = -1;
            for (const long long candidate : {n, n - 1, n + 1}) {
                if (candidate <= 0) continue;
                const std::string candidate_text = std::to_string(candidate);
                const int scale = power - precision;
                const std::string number = candidate_text + "e" + std::to_string(scale);
                if (std::strtod(number.c_str(), nullptr) != magnitude) continue;
                const double error = std::fabs(std::strtod(number.c_str(), nullptr) - magnitude) +
                                     std::fabs(static_cast<double>(candidate) - std::strtod(base.c_str(), nullptr));
                if (best_error >= 0 && error >= best_error) continue;
                best_error = error;
                digits = candidate_text;
                exponent = scale + static_cast<int>(candidate_text.size()) - 1;
            }
        }
        while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
        const int n = static_cast<int>(digits.size());
        std::string fixed = negative ? "-" : "";
        if (exponent >= n - 1) {
            // An integer: its exact digits (as long as the shortest ones padded with zeros).
            char exact[400];
            std::snprintf(exact, sizeof exact, "%.0f", magnitude);
            fixed += exact;
        } else if (exponent >= 0) {
            fixed += digits.substr(0, static_cast<std::size_t>(exponent + 1)) + "." +
                     digits.substr(static_cast<std::size_t>(exponent + 1));
        } else {
            fixed += "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
        }
        char exponent_text[16];
        std::snprintf(exponent_text, sizeof exponent_text, "e%c%02d", exponent < 0 ? '-' : '+',
                      exponent < 0 ? -exponent : exponent);
        const std::string scientific = (negative ? "-" : "") + digits.substr(0, 1) +
                                       (n > 1 ? "." + digits.substr(1) : "") + exponent_text;
        text = fixed.size() <= scientific.size() ? fixed : scientific;
    }
    if (static_cast<std::size_t>(last - first) < text.size()) return {last, errc::value_too_large};
    std::memcpy(first, text.data(), text.size());
    return {first + text.size(), errc{}};
}

}  // namespace std
