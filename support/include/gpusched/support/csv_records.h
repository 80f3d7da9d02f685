// The one RFC 4180 grammar of CSV records: quoted cells (commas, quotes, line breaks inside), '#' lines, located errors.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gpusched {

/// One record: its cells (unquoted) and its raw text (without the final line break).
struct CsvRecord {
    std::vector<std::string> cells;
    std::string raw;
    std::size_t line = 0;  ///< 1-based line where the record starts
};

/// How cells are read. Both settings share the quoting rules: a cell that starts with '"' is
/// quoted up to the next lone '"' ("" inside is one quote); it may hold commas and line breaks.
struct CsvGrammar {
    /// Blanks (spaces, tabs) around a cell are not part of it: an unquoted cell is trimmed, and
    /// blanks may stand before an opening quote and after a closing one. Off: every character
    /// counts, and any text after a closing quote is an error.
    bool trim_blanks = false;
};

/// Splits text into records. Lines starting with '#' (outside quotes) are records with no cells
/// and the raw line; empty lines are skipped. `first_line` numbers the text's first line (a part
/// of a file). InputError "SOURCE:LINE: unterminated quote in a CSV field" (LINE where the
/// record starts) or "SOURCE:LINE: text after a closing quote in a CSV field".
std::vector<CsvRecord> read_csv_records(std::string_view text, const std::string& source, std::size_t first_line = 1,
                                        CsvGrammar grammar = {});

/// The cells of `line`, one line of text with no line break, into `cells` (storage reused):
/// read_csv_records' grammar on one record; errors name `where` ("PATH:LINE: ...").
void split_csv_record_line(std::string_view line, CsvGrammar grammar, const std::string& where,
                           std::vector<std::string>& cells);

/// Whether a quoted cell is still open at the end of `line` (one line of text, without its break),
/// read as read_csv_records reads it, given whether one was open at its start: then the record
/// goes on on the next line.
bool csv_quote_open_at_end(std::string_view line, bool open_at_start);

/// The cell as written: quoted (inner quotes doubled) when it holds a comma, a quote, a line break,
/// leading/trailing spaces or a leading '#'; otherwise as is. read_csv_records reads it back exactly.
std::string csv_cell(std::string_view text);

/// Cells joined by commas, each through csv_cell, then "\n".
std::string csv_row(const std::vector<std::string>& cells);

}  // namespace gpusched
