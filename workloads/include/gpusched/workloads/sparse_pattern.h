// SparsePattern: a sparse matrix's shape in CSR form (row offsets, column indices), without values.
#pragma once

#include <cstdint>
#include <vector>

namespace gpusched::workloads {

/// The non-zero structure of a rows x cols matrix in CSR form: row r holds the column indices
/// col_indices[row_offsets[r] .. row_offsets[r+1]), ascending and without repeats. Values are
/// left out: the SpMV work models depend only on where the non-zeros are.
struct SparsePattern {
    std::uint64_t rows = 0;
    std::uint64_t cols = 0;
    std::vector<std::uint64_t> row_offsets{0};  ///< rows + 1 entries, row_offsets[0] = 0
    std::vector<std::uint32_t> col_indices;     ///< nnz entries, 0-based

    [[nodiscard]] std::uint64_t nnz() const { return row_offsets.back(); }
    [[nodiscard]] std::uint64_t row_length(std::uint64_t row) const {
        return row_offsets[row + 1] - row_offsets[row];
    }
    /// The longest row (0 for a matrix without rows).
    [[nodiscard]] std::uint64_t max_row_length() const;
    /// Throws std::logic_error unless the invariants above hold (for generators and tests).
    void check() const;
    bool operator==(const SparsePattern&) const = default;
};

/// One stored entry, 0-based.
struct SparseEntry {
    std::uint32_t row = 0;
    std::uint32_t col = 0;
};

/// The pattern of `entries` (any order, repeats allowed and merged) of a rows x cols matrix.
/// Every entry must lie inside the matrix (checked by the caller). Consumes `entries`.
SparsePattern pattern_from_entries(std::uint64_t rows, std::uint64_t cols, std::vector<SparseEntry>&& entries);

}  // namespace gpusched::workloads
