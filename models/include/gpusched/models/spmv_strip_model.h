// The SpMV paper's strip model (Guo & Wang): strip sizes, benchmark matrices, linear fits and per-format estimates.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpusched/hw/gpu_spec.h"

namespace gpusched::models {

/// Section III-B: the rows (CSR, ELL) or non-zeros (COO) one "iteration" of the whole GPU handles.
struct SpmvStripSizes {
    std::uint64_t csr = 0;  ///< S_CSR = N_SM x warps/SM (one warp per row)
    std::uint64_t ell = 0;  ///< S_ELL = N_SM x warps/SM x threads/warp (one thread per row)
    std::uint64_t coo = 0;  ///< S_COO = N_SM x threads/SM (one thread per non-zero)
};

/// The strip sizes from the GPU's per-SM limits.
SpmvStripSizes spmv_strip_sizes(const hw::GpuSpec& gpu);

/// One benchmark matrix (Section III-C) and its measured or simulated time.
struct SpmvBenchmarkPoint {
    std::string format;            ///< "csr", "ell" or "coo"
    std::uint64_t strips = 0;      ///< I: the matrix has S x I rows
    std::uint64_t nnz_per_row = 0; ///< P_NZ, the same in every row
    double time_us = 0;            ///< T
};

/// The benchmark matrices to time (time_us left 0): CSR and ELL with I = 1..10 and P_NZ = 4, 16,
/// 64, 256, 1024, 2048 (CSR also 4096, so the regime above the threshold has three points); COO
/// with I = 1 and P_NZ = 10, 20, ..., 100.
std::vector<SpmvBenchmarkPoint> spmv_benchmark_plan();

/// Measured benchmark times from a CSV file with the header `format,strips,nnz_per_row,time_us`
/// (any column order; `#` lines are comments): one row per benchmark matrix, as the runner
/// measures them on a GPU. Errors are InputError "PATH:LINE: ...".
std::vector<SpmvBenchmarkPoint> read_spmv_benchmarks(const std::string& path);

/// Rows of a benchmark matrix: S x I for its format.
std::uint64_t spmv_benchmark_rows(const SpmvStripSizes& sizes, const SpmvBenchmarkPoint& point);

/// Row offsets of a rows x P_NZ benchmark matrix (every row P_NZ long).
std::vector<std::uint64_t> spmv_uniform_offsets(std::uint64_t rows, std::uint64_t nnz_per_row);

/// What the model needs of a target matrix (Section III-E).
struct SpmvTargetFeatures {
    std::uint64_t rows = 0;
    std::uint64_t nnz = 0;
    std::uint64_t mode_row_length = 0;  ///< CSR's P_NZ: the most frequent row length (the smallest on ties)
    std::uint64_t max_row_length = 0;   ///< ELL's P_NZ
};

/// The features of the matrix with these CSR row offsets.
SpmvTargetFeatures spmv_target_features(const std::vector<std::uint64_t>& row_offsets);

/// One estimate with the quantities it came from, for printing.
struct SpmvStripEstimate {
    double time_us = 0;
    std::uint64_t strips = 0;       ///< I of the target (of the ELL part for HYB)
    double nnz_per_row = 0;         ///< P_NZ used (HYB: the width)
    std::uint64_t coo_strips = 0;   ///< HYB only: I of the COO part
};

/// The calibrated model: every relationship of Section III-F fitted by least squares (Eigen).
class SpmvStripModel {
public:
    /// `threshold`: CSR's regime boundary on P_NZ, the GPU's max threads per block (Section III-F1).
    /// Throws InputError when the points do not allow a fit (fewer than two per line).
    SpmvStripModel(SpmvStripSizes sizes, std::uint64_t threshold, std::vector<SpmvBenchmarkPoint> points);

    /// CSR (III-F1): (t0 / t1) x t2 with t0 = A x0 + B at the reference strip count, t1 the
    /// benchmark at (reference strips, Z), t2 = C y0 + D fitted over strips at P_NZ = Z; Z is the
    /// benchmark P_NZ nearest x0 in x0's regime.
    [[nodiscard]] SpmvStripEstimate csr(const SpmvTargetFeatures& t) const;
    /// ELL (III-F2): f(Y) X + g(Y), f linear in the strips, g(Y) = e(Y) - f(Y) x1.
    [[nodiscard]] SpmvStripEstimate ell(const SpmvTargetFeatures& t) const;
    /// COO (III-F3): T = a I + b over I = ceil(N_NZ / S_COO).
    [[nodiscard]] SpmvStripEstimate coo(const SpmvTargetFeatures& t) const;
    /// HYB (III-F4): the ELL estimate with P_NZ = width plus the COO estimate of the remainder
    /// (`coo_nnz` non-zeros); a part with nothing to do adds nothing.
    [[nodiscard]] SpmvStripEstimate hyb(const SpmvTargetFeatures& t, std::uint64_t width, std::uint64_t coo_nnz) const;

    [[nodiscard]] const SpmvStripSizes& sizes() const { return sizes_; }

private:
    struct Line {
        double slope = 0, intercept = 0;
        [[nodiscard]] double at(double x) const { return slope * x + intercept; }
    };
    [[nodiscard]] std::vector<const SpmvBenchmarkPoint*> select(const std::string& format, std::uint64_t strips,
                                                                std::uint64_t pnz) const;
    [[nodiscard]] static Line fit(const std::vector<double>& x, const std::vector<double>& y, const std::string& what);
    [[nodiscard]] std::uint64_t nearest_pnz(const std::string& format, double x, bool below_threshold) const;
    [[nodiscard]] double ell_time(std::uint64_t strips, double x) const;

    SpmvStripSizes sizes_;
    std::uint64_t threshold_;
    std::vector<SpmvBenchmarkPoint> points_;
    std::uint64_t reference_strips_ = 1;  ///< the strip count of CSR's Relationship-1
};

}  // namespace gpusched::models
