// CsvTable: minimal reader for the committed measurement CSVs (`# key=value` metadata, header, rows).
#pragma once

#include <map>
#include <string>
#include <vector>

namespace gpusched::test {

struct CsvTable {
    std::map<std::string, std::string> metadata;  ///< from "# key=value" lines
    std::vector<std::string> columns;
    std::vector<std::vector<std::string>> rows;

    /// Index of a column; throws std::runtime_error if absent.
    [[nodiscard]] std::size_t column(const std::string& name) const;
};

/// Reads a CSV file (read_metadata_csv); throws InputError, a std::runtime_error, if unreadable or ragged.
CsvTable read_csv_table(const std::string& path);

}  // namespace gpusched::test
