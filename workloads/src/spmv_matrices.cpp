// Seeded generators for the SpMV paper's test matrices: dense, FEM-like banded, QCD, epidemiology grid, power law.
#include "gpusched/workloads/spmv_matrices.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "gpusched/workloads/synthetic_work.h"

namespace gpusched::workloads {

namespace {

/// A counter-based stream of SplitMix64 values: value i is splitmix64(splitmix64(seed) + i).
class Stream {
public:
    explicit Stream(std::uint64_t seed) : base_(splitmix64(seed)) {}
    std::uint64_t next() { return splitmix64(base_ + counter_++); }
    /// Uniform in [0, n) (multiply-shift; n >= 1).
    std::uint64_t below(std::uint64_t n) {
        return static_cast<std::uint64_t>((static_cast<unsigned __int128>(next()) * n) >> 64);
    }
    /// Uniform in [0, 1).
    double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

private:
    std::uint64_t base_;
    std::uint64_t counter_ = 0;
};

/// Nudges lengths (each kept in [1, cols]) by +-1, cycling from a random row, until they sum to `target`.
void fix_total(std::vector<std::uint64_t>& lengths, std::uint64_t target, std::uint64_t cols, Stream& rng) {
    std::uint64_t sum = 0;
    for (const auto len : lengths) sum += len;
    const std::size_t n = lengths.size();
    std::size_t i = static_cast<std::size_t>(rng.below(n));
    while (sum != target) {
        std::uint64_t& len = lengths[i];
        if (sum < target && len < cols) {
            ++len;
            ++sum;
        } else if (sum > target && len > 1) {
            --len;
            --sum;
        }
        i = (i + 1) % n;
    }
}

/// Row lengths uniform in mean x [1 - spread, 1 + spread], then nudged to sum exactly to `target`.
std::vector<std::uint64_t> spread_lengths(std::uint64_t rows, std::uint64_t cols, std::uint64_t target, double spread,
                                          Stream& rng) {
    const double mean = static_cast<double>(target) / static_cast<double>(rows);
    std::vector<std::uint64_t> lengths(rows);
    for (auto& len : lengths) {
        const double l = std::round(mean * (1 - spread + 2 * spread * rng.unit()));
        len = std::clamp<std::uint64_t>(static_cast<std::uint64_t>(std::max(1.0, l)), 1, cols);
    }
    fix_total(lengths, target, cols, rng);
    return lengths;
}

/// `count` distinct columns in [0, cols), uniformly at random, ascending.
void random_columns(std::uint64_t count, std::uint64_t cols, Stream& rng, std::vector<std::uint32_t>& out) {
    const std::size_t first = out.size();
    while (out.size() - first < count) {
        for (std::uint64_t k = out.size() - first; k < count; ++k)
            out.push_back(static_cast<std::uint32_t>(rng.below(cols)));
        std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end());
        out.erase(std::unique(out.begin() + static_cast<std::ptrdiff_t>(first), out.end()), out.end());
    }
}

std::uint64_t grid_width(std::uint64_t rows) {
    auto w = static_cast<std::uint64_t>(std::ceil(std::sqrt(static_cast<double>(rows))));
    return std::max<std::uint64_t>(w, 1);
}

/// Grid neighbours of cell r on a row-major grid of width w holding `rows` cells: left, right, up, down.
template <typename F>
void grid_neighbours(std::uint64_t r, std::uint64_t w, std::uint64_t rows, F&& visit) {
    if (r >= w) visit(r - w);
    if (r % w != 0) visit(r - 1);
    if ((r + 1) % w != 0 && r + 1 < rows) visit(r + 1);
    if (r + w < rows) visit(r + w);
}

}  // namespace

const std::vector<SpmvMatrixInfo>& spmv_matrix_generators() {
    // Table IV of the paper; exact sizes of the Williams et al. (SC'07) matrices it names.
    static const std::vector<SpmvMatrixInfo> generators = {
        {"dense", "Dense", 2000, 2000.0, 0, SpmvStructure::dense},
        {"protein", "Protein", 36417, 119.3, 0.6, SpmvStructure::banded},
        {"spheres", "FEM/Spheres", 83334, 72.1, 0.3, SpmvStructure::banded},
        {"cantilever", "FEM/Cantilever", 62451, 64.1, 0.3, SpmvStructure::banded},
        {"harbor", "FEM/Harbor", 46835, 50.6, 0.5, SpmvStructure::banded},
        {"qcd", "QCD", 49152, 39.0, 0, SpmvStructure::scattered},
        {"ship", "FEM/Ship", 140874, 55.4, 0.3, SpmvStructure::banded},
        {"epidemiology", "Epidemiology", 525825, 3.9, 0, SpmvStructure::grid},
        {"powerlaw", "", 1000005, 3.1, 0, SpmvStructure::powerlaw},
    };
    return generators;
}

const SpmvMatrixInfo* find_spmv_matrix_generator(const std::string& name) {
    for (const auto& g : spmv_matrix_generators())
        if (g.name == name) return &g;
    return nullptr;
}

std::string spmv_matrix_generator_names() {
    std::string out;
    for (const auto& g : spmv_matrix_generators()) out += (out.empty() ? "" : ", ") + g.name;
    return out;
}

std::uint64_t spmv_generated_nnz(const SpmvMatrixInfo& info, std::uint64_t rows) {
    switch (info.structure) {
        case SpmvStructure::dense: return rows * rows;
        case SpmvStructure::grid: {
            std::uint64_t total = 0;
            const std::uint64_t w = grid_width(rows);
            for (std::uint64_t r = 0; r < rows; ++r) grid_neighbours(r, w, rows, [&](std::uint64_t) { ++total; });
            return total;
        }
        default: {
            const auto target = static_cast<std::uint64_t>(std::llround(info.nnz_per_row * static_cast<double>(rows)));
            return std::clamp<std::uint64_t>(target, rows, rows * rows);
        }
    }
}

SparsePattern generate_spmv_matrix(const SpmvMatrixInfo& info, std::uint64_t rows, std::uint64_t seed) {
    if (rows == 0) throw std::logic_error("generate_spmv_matrix: rows must be at least 1");
    Stream rng(seed);
    SparsePattern p;
    p.rows = rows;
    p.cols = rows;
    p.row_offsets.assign(1, 0);
    p.row_offsets.reserve(rows + 1);
    const std::uint64_t target = spmv_generated_nnz(info, rows);
    p.col_indices.reserve(static_cast<std::size_t>(target));
    std::vector<std::uint64_t> lengths;
    if (info.structure == SpmvStructure::banded || info.structure == SpmvStructure::scattered)
        lengths = spread_lengths(rows, rows, target, info.spread, rng);
    if (info.structure == SpmvStructure::powerlaw) {
        // Pareto tail with exponent 1.5 and minimum 1 (mean 3 before capping), nudged to the target.
        lengths.resize(rows);
        for (auto& len : lengths) {
            const double l = std::floor(std::pow(1.0 - rng.unit(), -1.0 / 1.5));
            len = std::clamp<std::uint64_t>(static_cast<std::uint64_t>(std::min(l, 1e18)), 1, rows);
        }
        fix_total(lengths, target, rows, rng);
    }
    const std::uint64_t w = grid_width(rows);
    for (std::uint64_t r = 0; r < rows; ++r) {
        switch (info.structure) {
            case SpmvStructure::dense:
                for (std::uint64_t c = 0; c < rows; ++c) p.col_indices.push_back(static_cast<std::uint32_t>(c));
                break;
            case SpmvStructure::banded: {
                // One contiguous run of len columns centred on the diagonal, shifted by up to len/4 either way.
                const std::uint64_t len = lengths[r];
                const std::uint64_t jitter = rng.below(len / 2 + 1);
                const auto centre = static_cast<std::int64_t>(r) - static_cast<std::int64_t>(len / 2) +
                                    static_cast<std::int64_t>(jitter) - static_cast<std::int64_t>(len / 4);
                const auto start = static_cast<std::uint64_t>(
                    std::clamp<std::int64_t>(centre, 0, static_cast<std::int64_t>(rows - len)));
                for (std::uint64_t c = start; c < start + len; ++c) p.col_indices.push_back(static_cast<std::uint32_t>(c));
                break;
            }
            case SpmvStructure::scattered:
            case SpmvStructure::powerlaw: random_columns(lengths[r], rows, rng, p.col_indices); break;
            case SpmvStructure::grid:
                grid_neighbours(r, w, rows, [&](std::uint64_t c) { p.col_indices.push_back(static_cast<std::uint32_t>(c)); });
                break;
        }
        p.row_offsets.push_back(p.col_indices.size());
    }
    return p;
}

}  // namespace gpusched::workloads
