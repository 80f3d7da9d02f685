// Fitting one kernel-spec key (e.g. a latency floor) to measured run times by a deterministic 1-D search.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/calibrate/cross_validation.h"
#include "gpusched/hw/gpu_spec.h"
#include "gpusched/workloads/kernel_spec_value.h"

namespace gpusched::calibrate {

/// One measured row: its kernel spec (without the fitted key), time, and a grouping number.
struct KeyMeasurement {
    std::string spec;
    double measured_us = 0;
    std::int64_t group = 0;  ///< the group column's value (extrapolation split), else the row index
    std::string where;       ///< "FILE:LINE" of the row, for messages about its spec
};

/// Reads a CSV with a header: every `{column}` in `spec_template` is replaced by that row's
/// cell, `time_column` is the measured time in ms, `group_column` (optional) an integer.
/// InputError "FILE:LINE: ..." for missing columns or bad cells.
std::vector<KeyMeasurement> read_key_measurements(const std::string& path, const std::string& spec_template,
                                                  const std::string& time_column, const std::string& group_column);

/// Simulated makespans (us) of the rows with `key=value` added, memoised per (value, row).
/// The rows' specs are parsed once, here: InputError "SPEC_WHERE: ..." (a row without a location) or
/// "FILE:LINE (SPEC_WHERE filled from this row): ..." for one that does not parse, where `spec_where`
/// names the spec template (the command line passes its flag).
class KeySimulator {
public:
    KeySimulator(hw::GpuSpec gpu, std::string policy, std::string execution, std::string key,
                 std::vector<KeyMeasurement> rows, const std::string& spec_where = "kernel");
    [[nodiscard]] const std::vector<KeyMeasurement>& rows() const { return rows_; }
    [[nodiscard]] const std::string& key() const { return key_; }
    double simulate_us(std::size_t i, double value);
    /// Checks that the first row's spec accepts each of `values` for the key before any simulation:
    /// when some are refused and others accepted, a KeyError about "range" (an end of the search
    /// interval refused) or "key" (a value inside it, e.g. a fraction for an integer key); when every
    /// value is refused, the spec's own error (the spec, not the search, is wrong).
    void check_values(const std::vector<double>& values, double lo, double hi) const;
    [[nodiscard]] std::size_t simulations() const { return simulations_; }
    /// `observer` is called with simulations() after each simulation (a progress display); none by default.
    void on_simulation(std::function<void(std::size_t)> observer) { observer_ = std::move(observer); }

private:
    hw::GpuSpec gpu_;
    std::string policy_;
    std::string execution_;
    std::string key_;
    std::vector<KeyMeasurement> rows_;
    std::vector<workloads::KernelSpec> specs_;  ///< rows_[i].spec, parsed
    std::map<double, std::vector<std::optional<double>>> memo_;
    std::size_t simulations_ = 0;
    std::function<void(std::size_t)> observer_;
};

/// Search: `grid` evenly spaced values on [lo, hi], then golden-section steps between the best
/// grid value's neighbours; the objective is the RMS relative error on the training rows.
struct KeyFitOptions {
    double lo = 0;
    double hi = 1000;
    int grid = 41;
    int refine_iterations = 20;
};

struct KeyFit {
    double value = 0;
    double rms_percent = 0;
};

KeyFit fit_key(KeySimulator& sim, const std::vector<std::size_t>& train, const KeyFitOptions& options);

/// The fit on every row, its per-row errors, and held-out errors: leave one row out (pooled)
/// and, with `extrapolation_limit`, groups <= limit -> groups > limit.
struct KeyCalibration {
    KeyFit fit;
    std::vector<double> simulated_us;
    std::vector<double> errors_percent;
    ErrorStats in_sample;
    ErrorStats leave_one_out;
    std::optional<Split> extrapolation;
    KeyFit extrapolation_fit;
    ErrorStats extrapolation_held_out;
};

KeyCalibration calibrate_key(KeySimulator& sim, const KeyFitOptions& options,
                             std::optional<std::int64_t> extrapolation_limit);

}  // namespace gpusched::calibrate
