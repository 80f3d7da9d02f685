// The committed measurement CSVs for tests, read by the project's one '#'-metadata CSV reader.
#include "support/csv_table.h"

#include <stdexcept>

#include "gpusched/support/metadata_csv.h"

namespace gpusched::test {

std::size_t CsvTable::column(const std::string& name) const {
    for (std::size_t i = 0; i < columns.size(); ++i)
        if (columns[i] == name) return i;
    throw std::runtime_error("CSV column '" + name + "' missing");
}

CsvTable read_csv_table(const std::string& path) {
    const MetadataCsv csv = read_metadata_csv(path, MetadataCsvOptions{});
    CsvTable table;
    table.metadata = csv.metadata_map();
    table.columns = csv.header;
    for (const CsvRow& row : csv.rows) table.rows.push_back(row.cells());
    return table;
}

}  // namespace gpusched::test
