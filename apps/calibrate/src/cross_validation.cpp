// Deterministic cross-validation splits and error statistics.
#include "gpusched/calibrate/cross_validation.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

#include "gpusched/support/input_error.h"

namespace gpusched::calibrate {

std::vector<Split> leave_one_group_out(const std::vector<std::int64_t>& keys, const std::string& label) {
    const std::set<std::int64_t> groups(keys.begin(), keys.end());
    std::vector<Split> out;
    if (groups.size() < 2) return out;
    for (const std::int64_t g : groups) {
        Split s;
        s.name = label + "=" + std::to_string(g) + " held out";
        for (std::size_t i = 0; i < keys.size(); ++i) (keys[i] == g ? s.test : s.train).push_back(i);
        out.push_back(std::move(s));
    }
    return out;
}

Split extrapolation_split(const std::vector<std::int64_t>& keys, std::int64_t limit, const std::string& label) {
    Split s;
    s.name = label + " <= " + std::to_string(limit) + " -> " + label + " > " + std::to_string(limit);
    for (std::size_t i = 0; i < keys.size(); ++i) (keys[i] <= limit ? s.train : s.test).push_back(i);
    if (s.train.empty() || s.test.empty())
        throw InputError("cross-validation: " + s.name + " leaves no points on one side");
    return s;
}

std::vector<Split> interleaved_folds(const std::vector<std::int64_t>& keys, std::size_t k, const std::string& label) {
    std::vector<std::size_t> order(keys.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
    std::vector<Split> out;
    if (k < 2 || keys.size() < k) return out;
    for (std::size_t fold = 0; fold < k; ++fold) {
        Split s;
        s.name = "fold " + std::to_string(fold + 1) + "/" + std::to_string(k) + " by " + label;
        for (std::size_t j = 0; j < order.size(); ++j) (j % k == fold ? s.test : s.train).push_back(order[j]);
        std::sort(s.train.begin(), s.train.end());
        std::sort(s.test.begin(), s.test.end());
        out.push_back(std::move(s));
    }
    return out;
}

ErrorStats error_stats(const std::vector<double>& percent) {
    ErrorStats s;
    s.count = percent.size();
    if (percent.empty()) return s;
    std::vector<double> abs;
    double squares = 0;
    for (const double e : percent) {
        abs.push_back(std::fabs(e));
        squares += e * e;
    }
    std::sort(abs.begin(), abs.end());
    const std::size_t n = abs.size();
    s.median_abs = n % 2 == 1 ? abs[n / 2] : (abs[n / 2 - 1] + abs[n / 2]) / 2;
    s.max_abs = abs.back();
    s.rms = std::sqrt(squares / static_cast<double>(n));
    return s;
}

double error_percent(double predicted, double measured) { return 100.0 * (predicted - measured) / measured; }

}  // namespace gpusched::calibrate
