// One spec key fitted by grid + golden-section search over simulations, with leave-one-out and extrapolation errors.
#include "gpusched/calibrate/key_fit.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <numeric>
#include <sstream>
#include <utility>

#include "gpusched/calibrate/calibration_file.h"
#include "gpusched/support/input_error.h"
#include "gpusched/support/key_error.h"
#include "gpusched/support/metadata_csv.h"
#include "gpusched/support/yaml_fields.h"
#include "gpusched/sweep/simulation.h"
#include "gpusched/workloads/kernel_spec.h"

namespace gpusched::calibrate {

namespace {
/// The largest measured table read (as calibrate series reads its tables).
constexpr std::size_t kMaxMeasuredDataBytes = std::size_t{64} << 20;
}  // namespace

std::vector<KeyMeasurement> read_key_measurements(const std::string& path, const std::string& spec_template,
                                                  const std::string& time_column, const std::string& group_column) {
    MetadataCsvOptions options;
    options.what = "measured data";
    options.quotes = true;
    options.max_bytes = kMaxMeasuredDataBytes;
    std::vector<KeyMeasurement> out;
    for (const CsvRow& r : read_metadata_csv(path, options).rows) {
        const std::string where = r.where();
        KeyMeasurement m;
        for (std::size_t pos = 0; pos < spec_template.size();) {
            const auto open = spec_template.find('{', pos);
            if (open == std::string::npos) {
                m.spec += spec_template.substr(pos);
                break;
            }
            const auto close = spec_template.find('}', open);
            if (close == std::string::npos) throw KeyError("kernel", "unclosed '{' in '" + spec_template + "'");
            m.spec += spec_template.substr(pos, open - pos) + r.text(spec_template.substr(open + 1, close - open - 1));
            pos = close + 1;
        }
        const auto ms = parse_number(r.text(time_column));
        if (!ms || !(*ms > 0)) throw InputError(where + ": column '" + time_column + "': expected a positive time in ms");
        m.measured_us = *ms * 1000.0;
        m.group = static_cast<std::int64_t>(out.size());
        m.where = where;
        if (!group_column.empty()) {
            const auto g = parse_integer(r.text(group_column));
            if (!g) throw InputError(where + ": column '" + group_column + "': expected an integer");
            m.group = *g;
        }
        out.push_back(std::move(m));
    }
    if (out.empty()) throw InputError(path + ": no data rows");
    return out;
}

KeySimulator::KeySimulator(hw::GpuSpec gpu, std::string policy, std::string execution, std::string key,
                           std::vector<KeyMeasurement> rows, const std::string& spec_where)
    : gpu_(std::move(gpu)),
      policy_(std::move(policy)),
      execution_(std::move(execution)),
      key_(std::move(key)),
      rows_(std::move(rows)) {
    for (const auto& row : rows_)
        specs_.push_back(workloads::KernelSpec::parse(
            row.spec, row.where.empty() ? spec_where : row.where + " (" + spec_where + " filled from this row)"));
}

double KeySimulator::simulate_us(std::size_t i, double value) {
    auto& row = memo_[value];
    if (row.empty()) row.resize(rows_.size());
    if (!row.at(i)) {
        const workloads::Application app = workloads::build_application({specs_[i].with(key_, exact_number(value))});
        row[i] = static_cast<double>(sweep::simulate_summary(gpu_, app, policy_, execution_).summary.makespan) / 1e6;
        ++simulations_;
        if (observer_) observer_(simulations_);
    }
    return *row[i];
}

void KeySimulator::check_values(const std::vector<double>& values, double lo, double hi) const {
    if (specs_.empty()) return;
    std::optional<std::pair<double, std::string>> refused;
    bool accepted = false;
    for (const double v : values) {
        try {
            (void)workloads::build_application({specs_.front().with(key_, exact_number(v))});
            accepted = true;
        } catch (const InputError& e) {
            if (!refused) refused = {v, e.what()};
        }
        if (accepted && refused) break;
    }
    if (!refused) return;
    if (!accepted) throw InputError(refused->second);
    const double v = refused->first;
    const std::string detail = "the kernel spec refuses " + key_ + " = " + exact_number(v) + " (" + refused->second + ")";
    if (v == lo || v == hi) throw KeyError("range", exact_number(v), detail);
    throw KeyError("key", key_, "the search tries values the spec refuses: " + detail);
}

namespace {

double objective(KeySimulator& sim, const std::vector<std::size_t>& train, double value) {
    double squares = 0;
    for (const std::size_t i : train) {
        const double e = error_percent(sim.simulate_us(i, value), sim.rows()[i].measured_us);
        squares += e * e;
    }
    return std::sqrt(squares / static_cast<double>(train.size()));
}

}  // namespace

KeyFit fit_key(KeySimulator& sim, const std::vector<std::size_t>& train, const KeyFitOptions& options) {
    if (train.empty()) throw InputError("calibrate: no measured rows to fit");
    if (!(options.hi > options.lo) || options.grid < 3) throw KeyError("range", "expected LO:HI with LO < HI");
    const double step = (options.hi - options.lo) / (options.grid - 1);
    std::vector<double> grid{options.lo, options.hi};
    for (int k = 1; k + 1 < options.grid; ++k) grid.push_back(options.lo + step * k);
    sim.check_values(grid, options.lo, options.hi);
    KeyFit best{options.lo, std::numeric_limits<double>::infinity()};
    int best_k = 0;
    for (int k = 0; k < options.grid; ++k) {
        const double v = options.lo + step * k;
        const double e = objective(sim, train, v);
        if (e < best.rms_percent) {
            best = {v, e};
            best_k = k;
        }
    }
    double lo = options.lo + step * std::max(0, best_k - 1);
    double hi = options.lo + step * std::min(options.grid - 1, best_k + 1);
    const double phi = (std::sqrt(5.0) - 1) / 2;
    double x1 = hi - phi * (hi - lo);
    double x2 = lo + phi * (hi - lo);
    double f1 = objective(sim, train, x1);
    double f2 = objective(sim, train, x2);
    for (int it = 0; it < options.refine_iterations; ++it) {
        if (f1 <= f2) {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - phi * (hi - lo);
            f1 = objective(sim, train, x1);
        } else {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + phi * (hi - lo);
            f2 = objective(sim, train, x2);
        }
    }
    if (f1 < best.rms_percent) best = {x1, f1};
    if (f2 < best.rms_percent) best = {x2, f2};
    return best;
}

KeyCalibration calibrate_key(KeySimulator& sim, const KeyFitOptions& options,
                             std::optional<std::int64_t> extrapolation_limit) {
    const std::size_t n = sim.rows().size();
    std::vector<std::size_t> all(n);
    std::iota(all.begin(), all.end(), std::size_t{0});
    KeyCalibration out;
    out.fit = fit_key(sim, all, options);
    for (std::size_t i = 0; i < n; ++i) {
        out.simulated_us.push_back(sim.simulate_us(i, out.fit.value));
        out.errors_percent.push_back(error_percent(out.simulated_us.back(), sim.rows()[i].measured_us));
    }
    out.in_sample = error_stats(out.errors_percent);
    if (n >= 2) {
        std::vector<double> held;
        for (std::size_t i = 0; i < n; ++i) {
            std::vector<std::size_t> train;
            for (std::size_t j = 0; j < n; ++j)
                if (j != i) train.push_back(j);
            const KeyFit f = fit_key(sim, train, options);
            held.push_back(error_percent(sim.simulate_us(i, f.value), sim.rows()[i].measured_us));
        }
        out.leave_one_out = error_stats(held);
    }
    if (extrapolation_limit) {
        std::vector<std::int64_t> groups;
        for (const auto& r : sim.rows()) groups.push_back(r.group);
        out.extrapolation = extrapolation_split(groups, *extrapolation_limit, "group");
        out.extrapolation_fit = fit_key(sim, out.extrapolation->train, options);
        std::vector<double> held;
        for (const std::size_t i : out.extrapolation->test)
            held.push_back(error_percent(sim.simulate_us(i, out.extrapolation_fit.value), sim.rows()[i].measured_us));
        out.extrapolation_held_out = error_stats(held);
    }
    return out;
}

}  // namespace gpusched::calibrate
