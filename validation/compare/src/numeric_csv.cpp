// Numeric measurement CSVs: header lookup, finite-number fields, file:line errors.
#include "numeric_csv.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "cut_line.h"
#include "gpusched/support/input_error.h"
#include "gpusched/support/yaml_fields.h"
#include "gpusched/support/text_file.h"

namespace gpusched::validation {

namespace {

std::vector<std::string> split(const std::string& line) {
    std::vector<std::string> out(1);
    for (char c : line) {
        if (c == ',')
            out.emplace_back();
        else if (c != '\r')
            out.back() += c;
    }
    return out;
}

}  // namespace

std::vector<NumericRow> read_numeric_csv(const std::string& path, const std::string& what,
                                         const std::vector<std::string>& columns) {
    TextLineReader reader(path, what);
    std::map<std::string, std::size_t> header;
    std::size_t header_fields = 0;
    std::vector<std::size_t> index;
    std::vector<NumericRow> rows;
    std::string line;
    while (reader.next(line)) {
        refuse_cut_line(reader);
        if (line.empty() || line[0] == '#') continue;
        const auto fields = split(line);
        if (header.empty()) {
            for (std::size_t c = 0; c < fields.size(); ++c) header[fields[c]] = c;
            header_fields = fields.size();
            for (const auto& name : columns) {
                if (!header.count(name)) throw InputError(reader.where() + ": missing column '" + name + "'");
                index.push_back(header.at(name));
            }
            continue;
        }
        if (fields.size() != header_fields)
            throw InputError(reader.where() + ": expected " + std::to_string(header_fields) + " fields, got " +
                             std::to_string(fields.size()));
        NumericRow row{reader.where(), {}};
        for (std::size_t k = 0; k < columns.size(); ++k) {
            if (index[k] >= fields.size()) throw InputError(row.where + ": too few fields");
            const auto v = parse_number(fields[index[k]]);
            if (!v || !std::isfinite(*v))
                throw InputError(row.where + ": " + columns[k] + " must be a number, got '" + fields[index[k]] + "'");
            row.values.push_back(*v);
        }
        rows.push_back(std::move(row));
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
