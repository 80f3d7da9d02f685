// Text helpers the summary views share: fixed-point microseconds and aligned tables written row by row.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "gpusched/support/time.h"

namespace gpusched::sim::summary_format {

/// `value / scale` with three decimals, rounded half up, in integer arithmetic.
inline std::string fixed3(std::uint64_t value, std::uint64_t scale) {
    const std::uint64_t thousandths = value / scale * 1000 + (value % scale * 1000 + scale / 2) / scale;
    char buf[40];
    std::snprintf(buf, sizeof buf, "%llu.%03llu", static_cast<unsigned long long>(thousandths / 1000),
                  static_cast<unsigned long long>(thousandths % 1000));
    return buf;
}

inline std::string us3(const std::optional<Time>& ps) { return ps ? fixed3(*ps, 1000000) : "-"; }

/// Writes `count` rows as columns padded to their widest cell; `left[c]` left-aligns column c.
/// `row(i, cells)` fills the cells of row i; it is called twice per row (widths, then lines),
/// so a table of a million launches is never held in memory.
template <class Row>
void write_rows(std::ostream& out, std::size_t count, const Row& row, const std::vector<bool>& left) {
    std::vector<std::size_t> width(left.size(), 0);
    std::vector<std::string> cells;
    for (std::size_t i = 0; i < count; ++i) {
        row(i, cells);
        for (std::size_t c = 0; c < cells.size(); ++c) width[c] = std::max(width[c], cells[c].size());
    }
    std::string line;
    for (std::size_t i = 0; i < count; ++i) {
        row(i, cells);
        line.clear();
        for (std::size_t c = 0; c < cells.size(); ++c) {
            const std::size_t pad = width[c] - cells[c].size();
            if (c > 0) line += "  ";
            if (!left[c]) line.append(pad, ' ');
            line += cells[c];
            if (left[c]) line.append(pad, ' ');
        }
        line.erase(line.find_last_not_of(' ') + 1);
        out << line << '\n';
    }
}

/// write_rows over rows held in memory (the few rows of the header and totals).
inline void write_table(std::ostream& out, const std::vector<std::vector<std::string>>& rows, const std::vector<bool>& left) {
    write_rows(out, rows.size(), [&](std::size_t i, std::vector<std::string>& cells) { cells = rows[i]; }, left);
}

}  // namespace gpusched::sim::summary_format
