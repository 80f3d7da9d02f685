// The runner's measurement CSVs ('#' metadata lines, a header, rows of named numeric columns) and their error summaries.
#pragma once

#include <string>
#include <vector>

namespace gpusched::validation {

struct NumericRow {
    std::string where;            ///< "PATH:LINE" for error messages
    std::vector<double> values;   ///< in the order of the requested columns
};

/// The requested columns of every data row. InputError naming the file (and line) when the
/// file cannot be read, a column is missing, a field is not a finite number, or there are no
/// rows. `what` names the kind of file in messages ("runtime curve CSV").
std::vector<NumericRow> read_numeric_csv(const std::string& path, const std::string& what,
                                         const std::vector<std::string>& columns);

/// The median of `values` (the mean of the two middle ones for an even count; 0 for none).
double median_of(std::vector<double> values);

/// 100 (value - reference) / reference; 0 when the reference is not positive.
double percent_error(double value, double reference);

/// Median and maximum of a non-empty sample (for the error summaries of measured tables).
struct ErrorSummary {
    double median = 0;
    double max = 0;
};
ErrorSummary summarise_errors(std::vector<double> abs_errors);

}  // namespace gpusched::validation
