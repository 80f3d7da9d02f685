// Run tables of the CUDA runner: '#'-metadata CSVs whose last column holds commas, read by read_metadata_csv.
#include "measured_table.h"

#include "gpusched/support/input_error.h"

namespace gpusched::validation {

std::vector<TableRow> read_run_table(const std::string& path, const std::string& what,
                                     const std::vector<std::string>& required) {
    MetadataCsvOptions options;
    options.what = what;
    options.last_takes_rest = true;
    options.refuse_cut_line = true;
    std::vector<TableRow> rows = read_metadata_csv(path, options, required).rows;
    if (rows.empty()) throw InputError(path + ": no measured rows");
    return rows;
}

}  // namespace gpusched::validation
