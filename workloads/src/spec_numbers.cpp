// Decimal-number keys of a kernel spec: strict parse with the allowed range in every message.
#include "gpusched/workloads/spec_numbers.h"

#include <cmath>
#include <cstdio>

#include "gpusched/support/yaml_fields.h"

namespace gpusched::workloads {

std::optional<Time> instruction_time(double issue_slots, double ns_per_instr) {
    const double ps = std::round(issue_slots * ns_per_instr * static_cast<double>(kPicosecondsPerNanosecond));
    if (!(ps >= 0) || ps >= 9223372036854775808.0) return std::nullopt;  // 2^63
    return static_cast<Time>(ps);
}

std::string format_spec_number(double value) {
    if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 1e15)
        return std::to_string(static_cast<long long>(value));
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", value);
    return buffer;
}

double spec_number(SpecArgs& args, const std::string& key, double min, double max, double fallback) {
    if (!args.has(key)) return fallback;
    const std::string text = args.text(key);
    const auto parsed = parse_number(text);
    if (!parsed || *parsed < min || *parsed > max)
        args.fail(key, "expected a number in [" + format_spec_number(min) + ", " + format_spec_number(max) +
                           "], got '" + (text.size() > 40 ? text.substr(0, 40) + "..." : text) + "'");
    return *parsed;
}

}  // namespace gpusched::workloads
