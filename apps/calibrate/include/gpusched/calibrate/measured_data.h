// Measured run times to calibrate against: the runner's binomial-series table and APSP curves.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gpusched::calibrate {

/// One measured binomial-series launch: B blocks of T threads, K terms per thread.
struct SeriesMeasurement {
    std::uint64_t blocks = 0;
    int threads = 0;
    std::uint64_t terms = 0;
    double measured_us = 0;  ///< median
};

/// One measured APSP run (all launches): n nodes, BS x BS blocks.
struct ApspMeasurement {
    std::string algorithm;  ///< "minplus" (the runner's column)
    std::int64_t n = 0;
    int block = 0;
    double measured_us = 0;
};

/// Reads columns blocks, threads, terms, median_ms (others ignored, '#' lines skipped).
/// InputError "FILE:LINE: ..." for a missing column or a value that is not a positive number
/// (blocks 1..2^40, threads 1..1024, terms 1..10^12).
std::vector<SeriesMeasurement> read_series_measurements(const std::string& path);

/// Reads columns algorithm, n, block, median_ms; rows of other algorithms than `algorithm` are skipped.
std::vector<ApspMeasurement> read_apsp_measurements(const std::string& path, const std::string& algorithm);

}  // namespace gpusched::calibrate
