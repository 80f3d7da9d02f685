// Shard parsing and selection from a given I/N or the Slurm array environment.
#include "gpusched/sweep/shard.h"

#include "gpusched/support/input_error.h"
#include "gpusched/support/key_error.h"
#include "gpusched/support/yaml_fields.h"

namespace gpusched::sweep {

std::uint64_t Shard::size(std::uint64_t total) const {
    return total > index ? (total - index + count - 1) / count : 0;
}

std::string Shard::text() const { return std::to_string(index) + "/" + std::to_string(count); }

Shard parse_shard(const std::string& text, const std::string& what) {
    const auto fail = [&](const std::string& why) -> Shard {
        throw KeyError(what, why + " (expected I/N with 0 <= I < N <= " + std::to_string(kMaxShards) +
                                 ", e.g. 0/4), got '" + text + "'");
    };
    const auto slash = text.find('/');
    if (slash == std::string::npos) return fail("no '/'");
    const auto index = parse_integer(text.substr(0, slash));
    const auto count = parse_integer(text.substr(slash + 1));
    if (!index || !count) return fail("not two integers");
    if (*count < 1 || *count > static_cast<std::int64_t>(kMaxShards)) return fail("N out of range");
    if (*index < 0 || *index >= *count) return fail("I out of range");
    return Shard{static_cast<std::uint64_t>(*index), static_cast<std::uint64_t>(*count)};
}

Shard select_shard(const std::optional<std::string>& given, const char* (*getenv)(const char*)) {
    if (given) return parse_shard(*given, "shard");
    const char* id = getenv("SLURM_ARRAY_TASK_ID");
    const char* count = getenv("SLURM_ARRAY_TASK_COUNT");
    if (id == nullptr || count == nullptr) return Shard{};
    const char* min = getenv("SLURM_ARRAY_TASK_MIN");
    const auto task = parse_integer(id);
    const auto first = min == nullptr ? std::optional<std::int64_t>(0) : parse_integer(min);
    const std::string what = "SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT";
    if (!task || !first) throw InputError(what + ": expected integers, got '" + std::string(id) + "' (min '" +
                                          (min ? min : "0") + "')");
    return parse_shard(std::to_string(*task - *first) + "/" + count, what);
}

}  // namespace gpusched::sweep
