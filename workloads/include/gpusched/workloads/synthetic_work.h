// Synthetic work: constant, patterned or seeded-random block durations, computed lazily by block index.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpusched/support/time.h"
#include "gpusched/workloads/generator_registry.h"
#include "gpusched/workloads/kernel_launch.h"

namespace gpusched::workloads {

/// The `duration=` forms: `50us` (constant), `10us/20us/40us` (cycled by block index),
/// `10us~50us` (uniform random integer picoseconds in [lo, hi], from a hash of seed and block).
struct SyntheticDurations {
    enum class Kind { constant, pattern, uniform };
    Kind kind = Kind::constant;
    std::vector<Time> values;  ///< constant: {d}; pattern: the cycle; uniform: {lo, hi}
    std::uint64_t seed = 1;    ///< uniform only
};

/// Parses a `duration=` value; throws InputError naming `what` (e.g. "--kernel: key 'duration'").
SyntheticDurations parse_synthetic_durations(const std::string& text, const std::string& what);

/// The SplitMix64 finaliser (Steele, Lea, Flood 2014): a fixed, portable 64-bit mix.
std::uint64_t splitmix64(std::uint64_t x);

/// The `lo~hi` duration of `block`: lo + splitmix64(splitmix64(seed) + block) mod (hi - lo + 1).
Time uniform_duration(Time lo, Time hi, std::uint64_t seed, std::uint64_t block);

/// A duration in the largest unit that shows it exactly: 50000000 -> "50us", 1500 -> "1500ps".
std::string format_duration(Time ps);

/// Synthetic block work: no per-block storage, any block index answers in O(1).
class SyntheticWork final : public BlockWork {
public:
    /// `active_warps` 0 means every warp of the block; `key` names the active_warps key in
    /// messages ("--kernel: key 'active_warps'").
    explicit SyntheticWork(SyntheticDurations durations, int active_warps = 0, std::string key = "active_warps");

    [[nodiscard]] Time duration(std::uint64_t block) const override;
    [[nodiscard]] bool same_duration_for_every_block() const override;
    /// Throws InputError if active_warps= exceeds the block's warps (known only with a GPU).
    [[nodiscard]] int active_warps(std::uint64_t block, int warps_per_block) const override;
    /// The same check, at the start of every simulation (whatever the execution model).
    void check_block_warps(int warps_per_block) const override;
    /// "constant 50us", "pattern 10us/20us/40us", "uniform 10us~50us (seed 7)", plus
    /// ", 2 active warps" where set.
    [[nodiscard]] std::string describe() const override;

private:
    SyntheticDurations durations_;
    int active_warps_ = 0;
    std::string key_;
};

/// The `synthetic` generator: keys duration, seed, active_warps.
KernelGeneratorInfo synthetic_generator();

}  // namespace gpusched::workloads
