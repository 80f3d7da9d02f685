// Duration parsing and formatting for integer-picosecond time.
#include "gpusched/support/time.h"

#include <cmath>
#include <cstdio>

#include "gpusched/support/input_error.h"

namespace gpusched {

namespace {
constexpr Time kMaxDuration = Time{1} << 63;  // ~106 days in picoseconds
}

Time parse_duration(const std::string& text, const std::string& what) {
    struct Unit {
        const char* suffix;
        Time scale;
    };
    static constexpr Unit units[] = {{"ps", 1}, {"ns", 1000}, {"us", 1000000}, {"ms", 1000000000},
                                     {"s", 1000000000000}};
    const auto fail = [&]() -> Time {
        throw InputError(what + ": expected a duration such as 50us, 1.5ms, 200ns or 3000ps, got '" + text + "'");
    };
    for (const auto& unit : units) {
        const std::string suffix = unit.suffix;
        if (text.size() <= suffix.size() || text.compare(text.size() - suffix.size(), suffix.size(), suffix) != 0)
            continue;
        if (suffix == "s" && (text.size() >= 2 && std::isalpha(static_cast<unsigned char>(text[text.size() - 2]))))
            continue;
        const std::string number = text.substr(0, text.size() - suffix.size());
        // Integer part and up to 12 fraction digits, exact in integer arithmetic.
        std::size_t i = 0;
        Time whole = 0;
        bool digits = false;
        for (; i < number.size() && std::isdigit(static_cast<unsigned char>(number[i])); ++i) {
            digits = true;
            if (whole > kMaxDuration / 10) fail();
            whole = whole * 10 + static_cast<Time>(number[i] - '0');
        }
        Time fraction = 0, fraction_scale = 1;
        if (i < number.size() && number[i] == '.') {
            ++i;
            for (; i < number.size() && std::isdigit(static_cast<unsigned char>(number[i])); ++i) {
                digits = true;
                if (fraction_scale >= 1000000000000) fail();
                fraction = fraction * 10 + static_cast<Time>(number[i] - '0');
                fraction_scale *= 10;
            }
        }
        if (!digits || i != number.size()) fail();
        if (whole > kMaxDuration / unit.scale) fail();
        const Time scaled_fraction = fraction * unit.scale;
        if (scaled_fraction % fraction_scale != 0)
            throw InputError(what + ": '" + text + "' is finer than one picosecond");
        return whole * unit.scale + scaled_fraction / fraction_scale;
    }
    return fail();
}

std::string format_ns(Time ps) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%llu.%03llu", static_cast<unsigned long long>(ps / 1000),
                  static_cast<unsigned long long>(ps % 1000));
    return buf;
}

Time ns_to_ps(double ns) {
    if (!(ns >= 0) || ns > 9.2e15) return 0;
    return static_cast<Time>(std::llround(ns * 1000.0));
}

}  // namespace gpusched
