// Curve validation: simulate every measured point of an APSP runtime curve, calibrate at one point, locate jumps.
#pragma once

#include <string>
#include <vector>

#include "gpusched/hw/gpu_spec.h"

namespace gpusched::validation {

struct CurvePoint {
    int n = 0;
    double measured_us = 0;
    double simulated_us = 0;     ///< raw simulation
    double calibrated_us = 0;    ///< simulation x the curve's calibration factor
    double error_percent = 0;    ///< 100 (calibrated - measured) / measured
};

/// A step of a curve between consecutive sizes n-1 -> n (sizes one apart only).
struct CurveJump {
    int n = 0;                   ///< the larger size
    double step_percent = 0;     ///< 100 (y(n) - y(n-1)) / y(n-1)
};

/// One measured curve (one kernel, one block size) against the simulation.
///
/// Calibration is the interval paper's one-point calibration: f = measured / simulated at
/// the reference size (the median n of the points in the dense sweep n <= 200), and every
/// simulated time is multiplied by f. A jump is a step n-1 -> n larger than
/// `jump_threshold_percent` of y(n-1); a simulated jump is located when the measured curve
/// has one at the same n or one step off (and vice versa).
struct CurveComparison {
    std::string kernel;          ///< "apsp-minplus" or "apsp-fw"
    /// How the measured runs issued their launches: "host-calls" (the host launched inside the
    /// timed region: simulated with HostIssue::calls when the GPU spec has host_launch_interval_ns)
    /// or "queued" (`*_queued.csv`: every launch queued behind a gate kernel first).
    std::string issue = "host-calls";
    int block = 0;
    int reference_n = 0;
    double factor = 0;
    std::vector<CurvePoint> points;
    std::vector<CurveJump> measured_jumps;
    std::vector<CurveJump> simulated_jumps;
    int measured_jumps_located = 0;     ///< measured jumps with a simulated jump within one step
    int simulated_jumps_located = 0;    ///< simulated jumps with a measured jump within one step
    /// Repeated sweeps of the same curve (`repeats/` beside the CSV, same kernel and block) and
    /// the measured jumps that every one of them has at the same n too: the reproducible jumps,
    /// a property of the hardware rather than of one sweep's launch jitter (none without repeats).
    int repeat_sweeps = 0;
    std::vector<CurveJump> reproducible_jumps;
    int reproducible_jumps_located = 0;  ///< reproducible jumps with a simulated jump within one step
    double median_abs_error_percent = 0;
    double max_abs_error_percent = 0;
};

/// Marks the measured jumps of `c` that each repeated sweep (runtime curve CSVs of the same
/// kernel; their rows of c.block) also has at the same n. InputError names a malformed file.
void mark_reproducible_jumps(CurveComparison& c, const std::vector<std::string>& repeat_csvs,
                             double jump_threshold_percent = 4.0);

/// Jumps of a curve given as (n, y) points sorted by n.
std::vector<CurveJump> find_jumps(const std::vector<std::pair<int, double>>& curve, double threshold_percent);

/// Reads `apsp_minplus.csv` (the runner's `curves` experiment: columns algorithm, n, block,
/// median_ms, ...; `#` lines are metadata) and compares one curve per block size, simulating
/// `apsp-minplus:n=N,block=BS` on `gpu` with `policy` and the `shared` execution model.
/// InputError naming the file and line for malformed data.
std::vector<CurveComparison> validate_apsp_curves(const std::string& csv_path, const hw::GpuSpec& gpu,
                                                  const std::string& policy, double jump_threshold_percent = 4.0);

/// Any curve CSV of the runner (columns n, block, median_ms) against simulations of `kernel`;
/// `queued`: the runs were timed with every launch already queued (no host launch cost).
std::vector<CurveComparison> validate_curves(const std::string& csv_path, const std::string& kernel,
                                             const hw::GpuSpec& gpu, const std::string& policy,
                                             double jump_threshold_percent = 4.0, bool queued = false);

/// Every curve of a `curves/` directory that is there: `apsp_minplus.csv` (one comparison per
/// block size), `apsp_fw.csv`, then the same measured with queued launches (`*_queued.csv`).
std::vector<CurveComparison> validate_curve_dir(const std::string& curves_dir, const hw::GpuSpec& gpu,
                                                const std::string& policy);

}  // namespace gpusched::validation
