// Matrix Market reader: `coordinate`/`array`, `real`/`integer`/`pattern`, `general`/`symmetric`/`skew-symmetric`.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "gpusched/workloads/sparse_pattern.h"

namespace gpusched::workloads {

/// Input sanity bounds: a file whose size line asks for more is rejected before anything is
/// allocated for it (a 60-byte file must not be able to ask for gigabytes).
struct MatrixMarketLimits {
    std::uint64_t max_rows = std::uint64_t{1} << 26;          ///< rows (the CSR offsets cost 8 bytes each)
    std::uint64_t max_cols = (std::uint64_t{1} << 31) - 1;    ///< columns (32-bit column indices)
    std::uint64_t max_entries = std::uint64_t{1} << 31;       ///< stored entries after symmetric mirroring
    std::uint64_t max_line = std::uint64_t{1} << 16;          ///< bytes per line
};

/// What the banner line declares.
struct MatrixMarketHeader {
    std::string format;    ///< "coordinate" or "array"
    std::string field;     ///< "real", "integer" or "pattern"
    std::string symmetry;  ///< "general", "symmetric" or "skew-symmetric"
};

/// A parsed file: its banner and its non-zero pattern. `array` files store every entry, zeros
/// included; `symmetric`/`skew-symmetric` ones get the mirror (j, i) of every off-diagonal
/// (i, j); repeated coordinates are merged into one stored entry.
struct MatrixMarketMatrix {
    MatrixMarketHeader header;
    std::uint64_t file_entries = 0;  ///< entries the file lists (before mirroring and merging)
    SparsePattern pattern;
};

/// Reads the Matrix Market file `path`. Every problem (bad banner or size line, unsupported
/// field or symmetry, a bad or out-of-range index, a non-numeric value, too many or too few
/// entries, binary junk, sizes beyond `limits`) throws InputError "PATH:LINE: what".
MatrixMarketMatrix read_matrix_market(const std::string& path, const MatrixMarketLimits& limits = {});

/// As read_matrix_market, from the text of a file; `name` stands for the path in messages.
MatrixMarketMatrix parse_matrix_market(std::string_view text, const std::string& name,
                                       const MatrixMarketLimits& limits = {});

}  // namespace gpusched::workloads
