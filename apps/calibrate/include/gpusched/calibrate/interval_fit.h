// Fitting the interval paper's calibration factor f (and a per-launch constant) to measured APSP curves.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gpusched/calibrate/calibration_file.h"
#include "gpusched/calibrate/measured_data.h"
#include "gpusched/hw/gpu_spec.h"
#include "gpusched/workloads/kernel_spec_value.h"

namespace gpusched::calibrate {

/// The interval model's uncalibrated terms for one measured point, as the `predict` command's
/// interval model computes them (launches x (T_launch + T_warp x #WarpsPerSM)).
struct IntervalTerms {
    double launches = 0;
    double launch_us = 0;    ///< the GPU spec's launch to first block, per launch
    double average_us = 0;   ///< mean of the Min, Sorted, Full and Buckets predictions, T_launch included
    double issue_us = 0;     ///< the same without T_launch: launches x T_warp x mean #WarpsPerSM
};

/// `base` is a spec without n and block (e.g. "apsp-minplus" or "apsp-minplus:regs=32");
/// KeyError (key gpu or kernel) if the GPU has no clock or the kernel no per-warp work.
IntervalTerms interval_terms(const hw::GpuSpec& gpu, const std::string& base, std::int64_t n, int block);
/// As above for a parsed base spec: n and block are added to it (InputError if it gives them).
IntervalTerms interval_terms(const hw::GpuSpec& gpu, const workloads::KernelSpec& base, std::int64_t n, int block);

/// How f is found from the training points.
enum class IntervalMethod {
    one_point,   ///< the paper: f = T_meas(n0) / average(n0), n0 the training point of median measured time
    factor,      ///< least squares over the training points: T = f x average
    factor_launch,  ///< least squares: T = launches x launch_us + f x issue (both fitted)
};
const char* interval_method_name(IntervalMethod method);

/// Least squares in relative error (each row divided by the measured time), solved with Eigen.
IntervalFactor fit_interval(const std::vector<IntervalTerms>& terms, const std::vector<ApspMeasurement>& measured,
                            const std::vector<std::size_t>& train, IntervalMethod method);

/// The calibrated prediction in microseconds: launches x launch_us + f x issue_us when the
/// factor has a launch_us, else f x average_us.
double interval_predict_us(const IntervalTerms& terms, const IntervalFactor& factor);

}  // namespace gpusched::calibrate
