// Calibrating the interval model's f on measured APSP curves, each method cross-validated.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpusched/calibrate/cross_validation.h"
#include "gpusched/calibrate/interval_fit.h"

namespace gpusched::calibrate {

/// Held-out errors of one scheme, pooled over its splits.
struct IntervalSchemeResult {
    std::string name;
    std::size_t splits = 0;
    ErrorStats pooled;
};

struct IntervalMethodResult {
    IntervalMethod method = IntervalMethod::factor;
    IntervalFactor factor;              ///< fitted on every point
    std::vector<double> errors_percent; ///< in-sample, per point
    ErrorStats in_sample;
    std::vector<IntervalSchemeResult> schemes;
};

struct IntervalCalibration {
    std::vector<IntervalTerms> terms;   ///< per measured point
    std::vector<IntervalMethodResult> methods;  ///< one_point, factor, factor_launch
};

/// Every method on every point, then three schemes: `folds` interleaved folds by n; extrapolation
/// n <= n_limit -> n > n_limit; leave one block size out (when there are several). Schemes that
/// cannot be formed (one side empty, one block size) are left out. `spec`: the kernel without n and
/// block (messages about it name spec.where()).
IntervalCalibration calibrate_interval(const hw::GpuSpec& gpu, const workloads::KernelSpec& spec,
                                       const std::vector<ApspMeasurement>& measured, std::int64_t n_limit,
                                       std::size_t folds);

}  // namespace gpusched::calibrate
