// The runner's run tables: '#' metadata lines, a header, rows of named text fields (the last may hold commas).
#pragma once

#include <string>
#include <vector>

#include "gpusched/support/metadata_csv.h"

namespace gpusched::validation {

/// One data row of a run table: its fields by column name, typed access naming file, line and column.
using TableRow = CsvRow;

/// Every data row of `path`, a '#'-metadata CSV (read_metadata_csv). The last column of the header
/// takes the rest of the line, commas included (the runner writes `workload_spec` unquoted).
/// InputError naming the file (and line) when the file cannot be read, one of `required` columns
/// is missing, a row has too few fields, or there are no rows. `what` names the kind of file in
/// messages ("SpMV run table").
std::vector<TableRow> read_run_table(const std::string& path, const std::string& what,
                                     const std::vector<std::string>& required);

}  // namespace gpusched::validation
