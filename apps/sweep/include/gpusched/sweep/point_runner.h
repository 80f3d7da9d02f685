// Point runner: one study point built (GPU variant, workload, policy) and simulated into metric cells.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "gpusched/sweep/gpu_variants.h"
#include "gpusched/sweep/study.h"

namespace gpusched::sweep {

/// The metric columns, after the parameter columns; `error` is last (empty when the point ran).
const std::vector<std::string>& metric_names();

/// Runs points of one study; one per worker thread (it memoises GPU variants).
class PointRunner {
public:
    /// `stop`, when given, is asked during each simulation whether to give up (RunStopped).
    explicit PointRunner(const Study& study, std::function<bool()> stop = {})
        : study_(study), gpus_(study.base_dir), stop_(std::move(stop)) {}

    /// The point's parameter values (point_values) with what it leaves out filled in: gpu h100, the
    /// study's first workload, and policy and exec as its run takes them (scheduler::resolve_run_setup
    /// on its GPU variant: the GPU's defaults, else the built-in ones, also when the variant cannot
    /// be built). InputError for a GPU whose defaults.policy the registry does not know.
    std::vector<std::string> effective_values(std::vector<std::string> values);

    /// The metric cells of a point with these effective values (effective_values). A point that
    /// cannot be built or launched (an inconsistent GPU variant, a kernel the GPU cannot run,
    /// a workload that does not parse) gets empty metrics and its message in `error`.
    std::vector<std::string> run(const std::vector<std::string>& values);

    /// Builds (without simulating) the point's GPU variant, run set-up and workload; throws what
    /// run() would report, except hw::InconsistentSpecError.
    void build_only(const std::vector<std::string>& values);

private:
    const Study& study_;
    GpuVariantCache gpus_;
    std::function<bool()> stop_;
};

/// Checks a study before any point runs: every gpu, policy, exec and workload value, and
/// probe points of each set (a grid's first point and each axis value against it, the first
/// list entries and random draws). InputError "WHERE: point P (NAME=VALUE ...): message" for
/// a value that cannot work at all; points that are invalid only in combination run and
/// report their error in the row.
void check_study(const Study& study);

}  // namespace gpusched::sweep
