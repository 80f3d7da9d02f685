// Numeric measurement CSVs: the requested columns of a '#'-metadata CSV as finite numbers, and error summaries.
#include "numeric_csv.h"

#include <algorithm>

#include "gpusched/support/input_error.h"
#include "gpusched/support/metadata_csv.h"

namespace gpusched::validation {

std::vector<NumericRow> read_numeric_csv(const std::string& path, const std::string& what,
                                         const std::vector<std::string>& columns) {
    MetadataCsvOptions options;
    options.what = what;
    options.refuse_cut_line = true;
    std::vector<NumericRow> rows;
    for (const CsvRow& row : read_metadata_csv(path, options, columns).rows) {
        NumericRow numeric{row.where(), {}};
        for (const auto& name : columns) numeric.values.push_back(row.number(name));
        rows.push_back(std::move(numeric));
    }
    if (rows.empty()) throw InputError(path + ": no measured points");
    return rows;
}

double median_of(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n == 0 ? 0 : n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

double percent_error(double value, double reference) {
    return reference > 0 ? 100.0 * (value - reference) / reference : 0.0;
}

ErrorSummary summarise_errors(std::vector<double> abs_errors) {
    const double max = *std::max_element(abs_errors.begin(), abs_errors.end());
    return {median_of(std::move(abs_errors)), max};
}

}  // namespace gpusched::validation
