// Duration parsing and formatting for integer-picosecond time.
#include "gpusched/support/time.h"

#include <cmath>
#include <cstdio>

#include "gpusched/support/checked_time.h"
#include "gpusched/support/input_error.h"

namespace gpusched {

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
    const auto too_long = [&]() -> Time {
        throw TimeRangeError(what + ": '" + text + "' reaches " + time_limit_text());
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
        bool digits = false, huge = false;
        for (; i < number.size() && std::isdigit(static_cast<unsigned char>(number[i])); ++i) {
            digits = true;
            huge = huge || whole > kTimeLimit / 10;
            if (!huge) whole = whole * 10 + static_cast<Time>(number[i] - '0');
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
        if (huge) too_long();
        // fraction / fraction_scale of the unit, in picoseconds (fraction x scale could wrap).
        Time fraction_ps = 0;
        if (fraction_scale <= unit.scale) {
            fraction_ps = fraction * (unit.scale / fraction_scale);
        } else {
            const Time finer = fraction_scale / unit.scale;
            if (fraction % finer != 0) throw InputError(what + ": '" + text + "' is finer than one picosecond");
            fraction_ps = fraction / finer;
        }
        const std::optional<Time> scaled = time_product(whole, unit.scale);
        const std::optional<Time> total = scaled ? time_sum(*scaled, fraction_ps) : std::nullopt;
        return total ? *total : too_long();
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
