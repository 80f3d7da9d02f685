// Binomial-series calibration with leave-one-block-size-out and small-to-large cross-validation.
#include "gpusched/calibrate/series_calibration.h"

#include <algorithm>
#include <numeric>

namespace gpusched::calibrate {

namespace {

SeriesSplitResult run_split(SeriesSimulator& sim, const Split& split, const SeriesFitOptions& options) {
    SeriesSplitResult r;
    r.split = split;
    r.fit = fit_series(sim, split.train, options);
    for (const std::size_t i : split.test)
        r.test_errors_percent.push_back(error_percent(sim.simulate_us(i, r.fit.params), sim.points()[i].measured_us));
    r.held_out = error_stats(r.test_errors_percent);
    return r;
}

SeriesScheme run_scheme(SeriesSimulator& sim, std::string name, const std::vector<Split>& splits,
                        const SeriesFitOptions& options) {
    SeriesScheme s;
    s.name = std::move(name);
    std::vector<double> pooled;
    for (const auto& split : splits) {
        s.splits.push_back(run_split(sim, split, options));
        const auto& e = s.splits.back().test_errors_percent;
        pooled.insert(pooled.end(), e.begin(), e.end());
    }
    s.pooled = error_stats(pooled);
    return s;
}

}  // namespace

SeriesCalibration calibrate_series(SeriesSimulator& sim, std::uint64_t extrapolation_limit,
                                   const SeriesFitOptions& options) {
    const auto& points = sim.points();
    std::vector<std::size_t> all(points.size());
    std::iota(all.begin(), all.end(), std::size_t{0});
    SeriesCalibration out;
    out.fit = fit_series(sim, all, options);
    for (std::size_t i = 0; i < points.size(); ++i) {
        out.simulated_us.push_back(sim.simulate_us(i, out.fit.params));
        out.errors_percent.push_back(error_percent(out.simulated_us.back(), points[i].measured_us));
    }
    out.in_sample = error_stats(out.errors_percent);

    std::vector<std::int64_t> threads, blocks;
    for (const auto& p : points) {
        threads.push_back(p.threads);
        blocks.push_back(static_cast<std::int64_t>(p.blocks));
    }
    const auto logo = leave_one_group_out(threads, "threads");
    if (!logo.empty()) out.schemes.push_back(run_scheme(sim, "leave one block size out", logo, options));
    const auto limit = static_cast<std::int64_t>(extrapolation_limit);
    const bool both_sides = std::any_of(blocks.begin(), blocks.end(), [&](std::int64_t b) { return b <= limit; }) &&
                            std::any_of(blocks.begin(), blocks.end(), [&](std::int64_t b) { return b > limit; });
    if (both_sides)
        out.schemes.push_back(
            run_scheme(sim, "small grids -> large grids", {extrapolation_split(blocks, limit, "blocks")}, options));
    return out;
}

}  // namespace gpusched::calibrate
