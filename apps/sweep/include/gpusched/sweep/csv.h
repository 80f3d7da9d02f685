// CSV cells and records (RFC 4180): quoting on write, quote-aware splitting on read.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gpusched::sweep {

/// The cell as written: quoted (inner quotes doubled) when it holds a comma, a quote, a
/// line break or leading/trailing spaces; otherwise as is.
std::string csv_cell(std::string_view text);

/// Cells joined by commas, each through csv_cell, then "\n".
std::string csv_row(const std::vector<std::string>& cells);

/// One record: its cells (unquoted) and its raw text (without the final line break).
struct CsvRecord {
    std::vector<std::string> cells;
    std::string raw;
    std::size_t line = 0;  ///< 1-based line where the record starts
};

/// Splits text into records. A quoted cell may hold commas and line breaks. Throws
/// InputError "SOURCE:LINE: ..." for an unterminated quote or text after a closing quote.
/// Lines starting with '#' (outside quotes) are returned as records with no cells and the
/// raw line; empty lines are skipped. `first_line` numbers the text's first line (a part of a file).
std::vector<CsvRecord> read_csv_records(std::string_view text, const std::string& source, std::size_t first_line = 1);

/// Whether a quoted cell is still open at the end of `line` (one line of text, without its break),
/// read as read_csv_records reads it, given whether one was open at its start: then the record
/// goes on on the next line.
bool csv_quote_open_at_end(std::string_view line, bool open_at_start);

}  // namespace gpusched::sweep
