// Series-kernel table: the compute-bound paper's experiment (blocks x threads) measured vs simulated.
#pragma once

#include <string>
#include <vector>

#include "gpusched/hw/gpu_spec.h"

namespace gpusched::validation {

struct SeriesPoint {
    int blocks = 0;
    int threads = 0;
    int terms = 0;
    double measured_us = 0;
    double simulated_us = 0;
    double calibrated_us = 0;
    double error_percent = 0;    ///< 100 (calibrated - measured) / measured
};

/// One-point calibration as for the curves: f = measured / simulated at the reference
/// point, the one with the median measured time (ties: fewer blocks, then fewer threads).
struct SeriesComparison {
    std::vector<SeriesPoint> points;   ///< sorted by threads, then blocks
    int reference_blocks = 0;
    int reference_threads = 0;
    double factor = 0;
    double median_abs_error_percent = 0;
    double max_abs_error_percent = 0;
    std::string work_keys;         ///< extra binomial-series keys from the work file ("" = defaults)
    std::string work_file;         ///< the file they came from ("" = none)
};

/// The kernel's measured work parameters that sit next to the measurements, if any:
/// `binomial_work.txt` in the CSV's directory, '#' comment lines and one line of
/// binomial-series keys (e.g. `instr_per_term=15.25,term_latency_cycles=59.0`), added to
/// every simulated point's spec. Returns "" when the file does not exist; InputError naming
/// the file for anything else than one such line, for a line that does not parse as
/// key=value,... (FILE:LINE), or for blocks/threads/terms (the CSV's).
std::string read_series_work_keys(const std::string& path);

/// Reads the runner's `binomial.csv` (columns blocks, threads, terms, median_ms) and
/// simulates `binomial-series:blocks=B,threads=T,terms=K[,work keys]` on `gpu` with `policy`
/// and the `shared` execution model, the work keys from read_series_work_keys() on
/// `work_file` ("" = `binomial_work.txt` beside the CSV). InputError naming the file and line
/// for malformed data.
SeriesComparison validate_series(const std::string& csv_path, const hw::GpuSpec& gpu, const std::string& policy,
                                 const std::string& work_file = "");

}  // namespace gpusched::validation
