// Run tables of the CUDA runner: header lookup, a comma-holding last column, file:line errors.
#include "measured_table.h"

#include <algorithm>
#include <cmath>

#include "cut_line.h"
#include "gpusched/support/input_error.h"
#include "gpusched/support/yaml_fields.h"
#include "gpusched/support/text_file.h"

namespace gpusched::validation {

namespace {

/// Splits at the first `columns - 1` commas; the last field keeps the rest.
std::vector<std::string> split(const std::string& line, std::size_t columns) {
    std::vector<std::string> out(1);
    for (char c : line) {
        if (c == ',' && (columns == 0 || out.size() < columns))
            out.emplace_back();
        else if (c != '\r')
            out.back() += c;
    }
    return out;
}

}  // namespace

const std::string& TableRow::text(const std::string& column) const {
    const auto it = fields_.find(column);
    if (it == fields_.end()) throw InputError(where_ + ": no column '" + column + "'");
    return it->second;
}

double TableRow::number(const std::string& column) const {
    const std::string& field = text(column);
    const auto v = parse_number(field);
    if (!v || !std::isfinite(*v)) throw InputError(where_ + ": " + column + " must be a number, got '" + field + "'");
    return *v;
}

std::int64_t TableRow::integer(const std::string& column, std::int64_t lo, std::int64_t hi) const {
    const std::string& field = text(column);
    const auto v = parse_integer(field);
    if (!v || *v < lo || *v > hi)
        throw InputError(where_ + ": " + column + " must be an integer " + std::to_string(lo) + ".." +
                         std::to_string(hi) + ", got '" + field + "'");
    return *v;
}

std::vector<TableRow> read_run_table(const std::string& path, const std::string& what,
                                     const std::vector<std::string>& required) {
    TextLineReader reader(path, what);
    std::vector<std::string> header;
    std::vector<TableRow> rows;
    std::string line;
    while (reader.next(line)) {
        refuse_cut_line(reader);
        if (line.empty() || line[0] == '#') continue;
        if (header.empty()) {
            header = split(line, 0);
            for (const auto& name : required)
                if (std::find(header.begin(), header.end(), name) == header.end())
                    throw InputError(reader.where() + ": missing column '" + name + "'");
            continue;
        }
        const auto fields = split(line, header.size());
        if (fields.size() != header.size())
            throw InputError(reader.where() + ": expected " + std::to_string(header.size()) + " fields, got " +
                             std::to_string(fields.size()));
        std::map<std::string, std::string> named;
        for (std::size_t c = 0; c < header.size(); ++c) named[header[c]] = fields[c];
        rows.emplace_back(reader.where(), std::move(named));
    }
    if (rows.empty()) throw InputError(path + ": no measured rows");
    return rows;
}

}  // namespace gpusched::validation
