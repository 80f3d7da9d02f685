// Point expansion by index: grid digits, list entries and seeded random draws.
#include "gpusched/sweep/point_space.h"

#include <charconv>
#include <stdexcept>

namespace gpusched::sweep {

std::uint64_t SplitMix64::next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

std::uint64_t SplitMix64::below(std::uint64_t n) {
    const std::uint64_t limit = ~std::uint64_t{0} - (~std::uint64_t{0} % n);
    while (true) {
        const std::uint64_t x = next();
        if (x < limit) return x % n;
    }
}

double SplitMix64::unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

PointOrigin locate_point(const Study& study, std::uint64_t p) {
    for (std::size_t s = 0; s < study.sets.size(); ++s) {
        if (p < study.sets[s].count) return {s, p};
        p -= study.sets[s].count;
    }
    throw std::out_of_range("point index beyond the study's " + std::to_string(study.total_points) + " points");
}

std::vector<std::string> point_values(const Study& study, std::uint64_t p) {
    std::vector<std::string> values = study.fixed;
    values.resize(study.params.size());
    const PointOrigin origin = locate_point(study, p);
    const PointSet& set = study.sets[origin.set];
    switch (set.kind) {
    case PointSet::Kind::grid: {
        std::uint64_t rest = origin.index;
        for (std::size_t a = set.axes.size(); a-- > 0;) {
            const auto& axis = set.axes[a];
            values[axis.param] = axis.values[rest % axis.values.size()];
            rest /= axis.values.size();
        }
        break;
    }
    case PointSet::Kind::list:
        for (const auto& [param, value] : set.rows[origin.index]) values[param] = value;
        break;
    case PointSet::Kind::random: {
        SplitMix64 seeder(set.seed);
        SplitMix64 rng(seeder.next() ^ (origin.index * 0xd1b54a32d192ed03ULL));
        rng.next();
        for (const auto& axis : set.random_axes) {
            if (!axis.choices.empty()) {
                values[axis.param] = axis.choices[rng.below(axis.choices.size())];
            } else if (axis.integer) {
                const auto span = static_cast<std::uint64_t>(axis.int_hi - axis.int_lo) + 1;
                values[axis.param] = std::to_string(axis.int_lo + static_cast<std::int64_t>(rng.below(span)));
            } else {
                const double v = axis.lo + (axis.hi - axis.lo) * rng.unit();
                char buf[64];
                const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
                (void)ec;
                values[axis.param] = std::string(buf, end);
            }
        }
        break;
    }
    }
    return values;
}

}  // namespace gpusched::sweep
