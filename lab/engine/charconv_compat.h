// std::from_chars and std::to_chars for double where the wasm toolchain's libc++ lacks them (Debian 12's emscripten 3.1.6 ships libc++ 14).
#pragma once

#include <cctype>
#include <cerrno>
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
    if (errno == ERANGE) return {p, errc::result_out_of_range};
    value = parsed;
    return {p, errc{}};
}

/// The shortest text that reads back as `value`, in fixed or scientific notation, whichever is
/// shorter (fixed on a tie), as the standard's plain to_chars(first, last, double).
inline to_chars_result to_chars(char* first, char* last, double value) {
    char scientific[64];
    for (int precision = 0; precision <= 17; ++precision) {
        std::snprintf(scientific, sizeof scientific, "%.*e", precision, value);
        if (std::strtod(scientific, nullptr) == value) break;
    }
    std::string text = scientific;
    const std::size_t e = text.find('e');
    if (e != std::string::npos) {
        // Mantissa digits and exponent of d.ddd e[+-]XX.
        std::string mantissa = text.substr(0, e);
        const int exponent = std::atoi(text.c_str() + e + 1);
        const bool negative = mantissa[0] == '-';
        std::string digits;
        for (const char c : mantissa)
            if (std::isdigit(static_cast<unsigned char>(c))) digits += c;
        std::string fixed = negative ? "-" : "";
        const int n = static_cast<int>(digits.size());
        if (exponent >= n - 1) {
            fixed += digits + std::string(static_cast<std::size_t>(exponent - (n - 1)), '0');
        } else if (exponent >= 0) {
            fixed += digits.substr(0, static_cast<std::size_t>(exponent + 1)) + "." +
                     digits.substr(static_cast<std::size_t>(exponent + 1));
        } else {
            fixed += "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
        }
        char exponent_text[16];
        std::snprintf(exponent_text, sizeof exponent_text, "e%c%02d", exponent < 0 ? '-' : '+',
                      exponent < 0 ? -exponent : exponent);
        std::string sci = (negative ? "-" : "") + digits.substr(0, 1) + (n > 1 ? "." + digits.substr(1) : "") +
                          exponent_text;
        text = fixed.size() <= sci.size() ? fixed : sci;
    }
    if (static_cast<std::size_t>(last - first) < text.size()) return {last, errc::value_too_large};
    std::memcpy(first, text.data(), text.size());
    return {first + text.size(), errc{}};
}

}  // namespace std
