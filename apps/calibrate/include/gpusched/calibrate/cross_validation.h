// Cross-validation: deterministic train/test splits of measured points and held-out error summaries.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gpusched::calibrate {

/// Indices into a list of measured points: fit on `train`, report the error on `test`.
struct Split {
    std::string name;  ///< e.g. "threads=256 held out", "blocks <= 660 -> blocks > 660"
    std::vector<std::size_t> train;
    std::vector<std::size_t> test;
};

/// One split per distinct key value (ascending): that group is the test set, the rest the
/// training set. `label` names the key in split names ("threads").
std::vector<Split> leave_one_group_out(const std::vector<std::int64_t>& keys, const std::string& label);

/// One split: train on key <= limit, test on key > limit. InputError if either side is empty.
Split extrapolation_split(const std::vector<std::int64_t>& keys, std::int64_t limit, const std::string& label);

/// k interleaved folds: points sorted by key (ties by index), the i-th of them in fold i mod k.
std::vector<Split> interleaved_folds(const std::vector<std::int64_t>& keys, std::size_t k, const std::string& label);

/// |error| statistics of signed percentage errors.
struct ErrorStats {
    std::size_t count = 0;
    double median_abs = 0;
    double max_abs = 0;
    double rms = 0;
};
ErrorStats error_stats(const std::vector<double>& percent);

/// 100 (predicted - measured) / measured.
double error_percent(double predicted, double measured);

}  // namespace gpusched::calibrate
