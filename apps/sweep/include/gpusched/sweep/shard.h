// Shard: one slice I of N of a sweep's points (--shard I/N or Slurm's array variables).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace gpusched::sweep {

/// Points are dealt round-robin: shard I of N runs points p with p mod N == I, so every
/// shard gets a similar mix of cheap and expensive points. {0, 1} is the whole sweep.
struct Shard {
    std::uint64_t index = 0;
    std::uint64_t count = 1;

    [[nodiscard]] bool contains(std::uint64_t point) const { return point % count == index; }
    /// How many of points 0..total-1 this shard runs.
    [[nodiscard]] std::uint64_t size(std::uint64_t total) const;
    /// The k-th point of this shard (k < size(total)).
    [[nodiscard]] std::uint64_t point(std::uint64_t k) const { return index + k * count; }
    [[nodiscard]] bool whole() const { return count == 1; }
    [[nodiscard]] std::string text() const;  ///< "I/N"

    friend bool operator==(const Shard&, const Shard&) = default;
};

/// Largest accepted shard count.
constexpr std::uint64_t kMaxShards = 1'000'000;

/// Parses "I/N" with 0 <= I < N <= kMaxShards. Throws a KeyError about key `what` naming the syntax.
Shard parse_shard(const std::string& text, const std::string& what);

/// The shard to run: `given` (errors about key "shard") when set; else SLURM_ARRAY_TASK_ID /
/// SLURM_ARRAY_TASK_COUNT (task ids are taken relative to SLURM_ARRAY_TASK_MIN, so --array=1-4
/// works too) when both are set; else the whole sweep. `getenv` is injectable for tests.
Shard select_shard(const std::optional<std::string>& given, const char* (*getenv)(const char*));

}  // namespace gpusched::sweep
