// TextTable: aligned plain-text tables, and fixed-precision numbers for their cells.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace gpusched::charts {

/// Columns are left-aligned unless marked numeric (right-aligned); two spaces between columns,
/// the last left-aligned column not padded.
///
///     name   SMs
///     h100   132
class TextTable {
public:
    explicit TextTable(std::vector<std::string> headers, std::vector<bool> numeric = {});
    void add_row(std::vector<std::string> cells);
    void print(std::ostream& out) const;

private:
    std::vector<std::string> headers_;
    std::vector<bool> numeric_;
    std::vector<std::vector<std::string>> rows_;
};

/// Formats a double with `digits` decimals (printf "%.*f"; "-" for a missing value is the caller's job).
std::string fixed(double value, int digits);

}  // namespace gpusched::charts
