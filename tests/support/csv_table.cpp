// Minimal CSV reader for committed measurement files.
#include "support/csv_table.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace gpusched::test {

std::size_t CsvTable::column(const std::string& name) const {
    for (std::size_t i = 0; i < columns.size(); ++i)
        if (columns[i] == name) return i;
    throw std::runtime_error("CSV column '" + name + "' missing");
}

CsvTable read_csv_table(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path);
    CsvTable table;
    std::string line;
    const auto split = [](const std::string& text) {
        std::vector<std::string> cells;
        std::stringstream ss(text);
        std::string cell;
        while (std::getline(ss, cell, ',')) cells.push_back(cell);
        if (!text.empty() && text.back() == ',') cells.emplace_back();
        return cells;
    };
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) continue;
        if (line[0] == '#') {
            const auto eq = line.find('=');
            if (eq != std::string::npos) {
                std::string key = line.substr(1, eq - 1);
                key.erase(0, key.find_first_not_of(' '));
                table.metadata[key] = line.substr(eq + 1);
            }
            continue;
        }
        if (table.columns.empty()) {
            table.columns = split(line);
            continue;
        }
        auto cells = split(line);
        if (cells.size() != table.columns.size())
            throw std::runtime_error(path + ": ragged row: " + line);
        table.rows.push_back(std::move(cells));
    }
    return table;
}

}  // namespace gpusched::test
