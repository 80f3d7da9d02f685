// The interval model's three calibration methods under three cross-validation schemes.
#include "gpusched/calibrate/interval_calibration.h"

#include <algorithm>
#include <numeric>

namespace gpusched::calibrate {

namespace {

IntervalSchemeResult run_scheme(const IntervalCalibration& c, const std::vector<ApspMeasurement>& measured,
                                IntervalMethod method, std::string name, const std::vector<Split>& splits) {
    IntervalSchemeResult r;
    r.name = std::move(name);
    r.splits = splits.size();
    std::vector<double> pooled;
    for (const auto& split : splits) {
        const IntervalFactor f = fit_interval(c.terms, measured, split.train, method);
        for (const std::size_t i : split.test)
            pooled.push_back(error_percent(interval_predict_us(c.terms[i], f), measured[i].measured_us));
    }
    r.pooled = error_stats(pooled);
    return r;
}

}  // namespace

IntervalCalibration calibrate_interval(const hw::GpuSpec& gpu, const workloads::KernelSpec& spec,
                                       const std::vector<ApspMeasurement>& measured, std::int64_t n_limit,
                                       std::size_t folds) {
    IntervalCalibration c;
    std::vector<std::int64_t> sizes, blocks;
    for (const auto& m : measured) {
        c.terms.push_back(interval_terms(gpu, spec, m.n, m.block));
        sizes.push_back(m.n);
        blocks.push_back(m.block);
    }
    std::vector<std::size_t> all(measured.size());
    std::iota(all.begin(), all.end(), std::size_t{0});
    std::vector<std::pair<std::string, std::vector<Split>>> schemes;
    if (auto f = interleaved_folds(sizes, folds, "n"); !f.empty())
        schemes.emplace_back(std::to_string(folds) + " interleaved folds by n", std::move(f));
    const bool both = std::any_of(sizes.begin(), sizes.end(), [&](std::int64_t n) { return n <= n_limit; }) &&
                      std::any_of(sizes.begin(), sizes.end(), [&](std::int64_t n) { return n > n_limit; });
    if (both) {
        Split s = extrapolation_split(sizes, n_limit, "n");
        std::string name = s.name;
        schemes.emplace_back(std::move(name), std::vector<Split>{std::move(s)});
    }
    if (auto l = leave_one_group_out(blocks, "block"); !l.empty())
        schemes.emplace_back("leave one block size out", std::move(l));
    for (const IntervalMethod method :
         {IntervalMethod::one_point, IntervalMethod::factor, IntervalMethod::factor_launch}) {
        IntervalMethodResult r;
        r.method = method;
        r.factor = fit_interval(c.terms, measured, all, method);
        for (std::size_t i = 0; i < measured.size(); ++i)
            r.errors_percent.push_back(
                error_percent(interval_predict_us(c.terms[i], r.factor), measured[i].measured_us));
        r.in_sample = error_stats(r.errors_percent);
        for (const auto& [name, splits] : schemes) r.schemes.push_back(run_scheme(c, measured, method, name, splits));
        c.methods.push_back(std::move(r));
    }
    return c;
}

}  // namespace gpusched::calibrate
