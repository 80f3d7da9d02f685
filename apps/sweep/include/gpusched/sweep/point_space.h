// Point expansion: the parameter values of point p of a study (grid product, list entry, seeded random draw).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpusched/sweep/study.h"

namespace gpusched::sweep {

/// Where point p comes from: its set and its index within that set.
struct PointOrigin {
    std::size_t set = 0;
    std::uint64_t index = 0;
};

/// Point p's set (sets are numbered in file order; their points follow one another).
PointOrigin locate_point(const Study& study, std::uint64_t p);

/// The values of point p, one per study parameter (empty: not set), computed directly from p:
/// - grid: mixed-radix digits of the index, the first axis varying slowest;
/// - list: the entry's values;
/// - random: draws from a SplitMix64 stream seeded by (seed, index), one per axis in order:
///   a uniform integer in [min, max], a uniform real (shortest round-trip text), or a choice.
/// fixed: values apply where the set gives none. Results depend only on the study and p.
std::vector<std::string> point_values(const Study& study, std::uint64_t p);

/// SplitMix64: a small, fully specified generator (same numbers on every platform).
class SplitMix64 {
public:
    explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next();
    /// Uniform in [0, n) without modulo bias (n >= 1).
    std::uint64_t below(std::uint64_t n);
    /// Uniform in [0, 1) with 53 random bits.
    double unit();

private:
    std::uint64_t state_;
};

}  // namespace gpusched::sweep
