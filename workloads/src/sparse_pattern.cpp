// SparsePattern: CSR construction from unordered entries (counting sort by row) and invariant checks.
#include "gpusched/workloads/sparse_pattern.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gpusched::workloads {

std::uint64_t SparsePattern::max_row_length() const {
    std::uint64_t longest = 0;
    for (std::uint64_t r = 0; r < rows; ++r) longest = std::max(longest, row_length(r));
    return longest;
}

void SparsePattern::check() const {
    const auto fail = [](const std::string& what) { throw std::logic_error("SparsePattern: " + what); };
    if (row_offsets.size() != rows + 1 || row_offsets.front() != 0) fail("row_offsets must have rows + 1 entries from 0");
    if (col_indices.size() != nnz()) fail("col_indices must have nnz entries");
    for (std::uint64_t r = 0; r < rows; ++r) {
        if (row_offsets[r + 1] < row_offsets[r]) fail("row offsets decrease at row " + std::to_string(r));
        for (std::uint64_t k = row_offsets[r]; k < row_offsets[r + 1]; ++k) {
            if (col_indices[k] >= cols) fail("column out of range in row " + std::to_string(r));
            if (k > row_offsets[r] && col_indices[k] <= col_indices[k - 1])
                fail("columns not ascending in row " + std::to_string(r));
        }
    }
}

SparsePattern pattern_from_entries(std::uint64_t rows, std::uint64_t cols, std::vector<SparseEntry>&& entries) {
    SparsePattern p;
    p.rows = rows;
    p.cols = cols;
    // Counting sort by row: offsets from the per-row counts, then each entry to its row's slot.
    std::vector<std::uint64_t> offsets(rows + 1, 0);
    for (const SparseEntry& e : entries) ++offsets[std::uint64_t{e.row} + 1];
    for (std::uint64_t r = 0; r < rows; ++r) offsets[r + 1] += offsets[r];
    std::vector<std::uint32_t> cols_sorted(entries.size());
    {
        std::vector<std::uint64_t> cursor(offsets.begin(), offsets.end() - 1);
        for (const SparseEntry& e : entries) cols_sorted[cursor[e.row]++] = e.col;
    }
    entries.clear();
    entries.shrink_to_fit();
    // Sort each row, drop repeats, compact in place.
    std::uint64_t out = 0;
    p.row_offsets.assign(rows + 1, 0);
    for (std::uint64_t r = 0; r < rows; ++r) {
        const auto begin = cols_sorted.begin() + static_cast<std::ptrdiff_t>(offsets[r]);
        const auto end = cols_sorted.begin() + static_cast<std::ptrdiff_t>(offsets[r + 1]);
        std::sort(begin, end);
        const auto last = std::unique(begin, end);
        for (auto it = begin; it != last; ++it) cols_sorted[out++] = *it;
        p.row_offsets[r + 1] = out;
    }
    cols_sorted.resize(out);
    cols_sorted.shrink_to_fit();
    p.col_indices = std::move(cols_sorted);
    return p;
}

}  // namespace gpusched::workloads
