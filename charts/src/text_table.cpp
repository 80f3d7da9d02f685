// Aligned plain-text tables and fixed-precision numbers.
#include "gpusched/charts/text_table.h"

#include <algorithm>
#include <cstdio>
#include <iomanip>

namespace gpusched::charts {

TextTable::TextTable(std::vector<std::string> headers, std::vector<bool> numeric)
    : headers_(std::move(headers)), numeric_(std::move(numeric)) {
    numeric_.resize(headers_.size(), false);
}

void TextTable::add_row(std::vector<std::string> cells) {
    cells.resize(headers_.size());
    rows_.push_back(std::move(cells));
}

void TextTable::print(std::ostream& out) const {
    std::vector<std::size_t> width(headers_.size());
    for (std::size_t c = 0; c < headers_.size(); ++c) {
        width[c] = headers_[c].size();
        for (const auto& row : rows_) width[c] = std::max(width[c], row[c].size());
    }
    const auto line = [&](const std::vector<std::string>& cells) {
        for (std::size_t c = 0; c < cells.size(); ++c) {
            if (c) out << "  ";
            const bool last = c + 1 == cells.size();
            if (numeric_[c])
                out << std::right << std::setw(static_cast<int>(width[c])) << cells[c];
            else if (last)
                out << cells[c];
            else
                out << std::left << std::setw(static_cast<int>(width[c])) << cells[c];
        }
        out << "\n";
    };
    line(headers_);
    for (const auto& row : rows_) line(row);
}

std::string fixed(double value, int digits) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, value);
    return buf;
}

}  // namespace gpusched::charts
