// The runner's run tables: '#' metadata lines, a header, rows of named text fields (the last may hold commas).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace gpusched::validation {

/// One data row of a run table, its fields by column name.
class TableRow {
public:
    TableRow(std::string where, std::map<std::string, std::string> fields)
        : where_(std::move(where)), fields_(std::move(fields)) {}
    [[nodiscard]] const std::string& where() const { return where_; }
    /// Whether the table has `column`.
    [[nodiscard]] bool has(const std::string& column) const { return fields_.count(column) != 0; }
    /// The field as written.
    [[nodiscard]] const std::string& text(const std::string& column) const;
    /// A finite number; InputError "PATH:LINE: COLUMN must be a number, got '...'" otherwise.
    [[nodiscard]] double number(const std::string& column) const;
    /// An integer in [lo, hi]; InputError naming the row and column otherwise.
    [[nodiscard]] std::int64_t integer(const std::string& column, std::int64_t lo, std::int64_t hi) const;

private:
    std::string where_;
    std::map<std::string, std::string> fields_;
};

/// Every data row of `path`. The last column of the header takes the rest of the line, commas
/// included (the runner writes `workload_spec` unquoted). InputError naming the file (and line)
/// when the file cannot be read, one of `required` columns is missing, a row has too few fields,
/// or there are no rows. `what` names the kind of file in messages ("SpMV run table").
std::vector<TableRow> read_run_table(const std::string& path, const std::string& what,
                                     const std::vector<std::string>& required);

}  // namespace gpusched::validation
