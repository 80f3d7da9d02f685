// Generated stand-ins for the SpMV paper's eight test matrices (and a power-law one): seeded, deterministic.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/workloads/sparse_pattern.h"

namespace gpusched::workloads {

/// How a generated matrix places its non-zeros.
enum class SpmvStructure {
    dense,     ///< every column of every row
    banded,    ///< FEM-like: row lengths spread around the mean, one contiguous run near the diagonal
    scattered, ///< every row the same length, columns uniformly at random (QCD)
    grid,      ///< 2D five-point neighbourhood without the centre: 2..4 per row (Epidemiology)
    powerlaw,  ///< row lengths from a Pareto tail, columns at random (web-graph-like)
};

/// One named generator: the paper's Table IV dimensions and non-zeros per row.
struct SpmvMatrixInfo {
    std::string name;            ///< as written after `gen=`
    std::string paper_name;      ///< Table IV's name ("FEM/Spheres"), or "" if not one of the eight
    std::uint64_t rows = 0;      ///< default size (square matrices)
    double nnz_per_row = 0;      ///< mean non-zeros per row (the generator hits round(rows x this) exactly)
    double spread = 0;           ///< banded: row lengths uniform in mean x [1 - spread, 1 + spread]
    SpmvStructure structure = SpmvStructure::banded;
};

/// Every generator, in Table IV's order, then `powerlaw`.
const std::vector<SpmvMatrixInfo>& spmv_matrix_generators();

/// The generator called `name`, or nullptr.
const SpmvMatrixInfo* find_spmv_matrix_generator(const std::string& name);

/// "dense, protein, ...": the names, for messages.
std::string spmv_matrix_generator_names();

/// Non-zeros a generator makes for `rows` rows: rows^2 (dense), round(rows x nnz_per_row) (banded,
/// scattered, the power-law target), or the grid's exact count.
std::uint64_t spmv_generated_nnz(const SpmvMatrixInfo& info, std::uint64_t rows);

/// The rows x rows matrix of generator `info` with the given seed; the same arguments always give
/// the same pattern. `rows` must be at least 1 (the caller bounds it and spmv_generated_nnz).
SparsePattern generate_spmv_matrix(const SpmvMatrixInfo& info, std::uint64_t rows, std::uint64_t seed);

}  // namespace gpusched::workloads
