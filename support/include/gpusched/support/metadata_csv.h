// The one reader of '#'-metadata CSV files: '# key=value' lines, a header row, then rows with their line numbers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "gpusched/support/text_file.h"

namespace gpusched {

/// How the lines of one kind of '#'-metadata CSV are read. Every kind shares the rest: lines
/// starting with '#' are metadata (anywhere in the file), blank lines are skipped, the first
/// other line is the header, every later one a row with exactly the header's number of cells.
struct MetadataCsvOptions {
    std::string what = "CSV file";             ///< the kind of file, in messages ("timeline CSV")
    std::size_t max_line = kMaxTextLineBytes;  ///< longest line accepted
    std::uint64_t max_bytes = UINT64_MAX;      ///< largest file accepted ("PATH: WHAT is larger than N bytes")
    bool quotes = false;          ///< cells may be "quoted" on one line ("" is a quote); blanks around cells trimmed
    bool last_takes_rest = false;  ///< the header's last column takes the rest of the row, commas included
    bool refuse_cut_line = false;  ///< a last line without a line break is an error (data cut mid-row)
};

/// One '#' line. `# key=value` gives key (trimmed) and value (as written); a line without '='
/// (a comment) has an empty key.
struct MetadataLine {
    std::uint64_t line = 0;  ///< 1-based
    std::string raw;         ///< the whole line, '#' included
    std::string key;
    std::string value;
};

/// The metadata line `raw` (which starts with '#') at `line`, split into key and value.
MetadataLine parse_metadata_line(const std::string& raw, std::uint64_t line);

/// The cells of one line. With `quotes`: RFC 4180 quoting within the line and blanks around cells
/// trimmed; InputError "WHERE: unterminated quote in a CSV field" or "WHERE: text after a closing
/// quote in a CSV field". Without: split at every comma, cells as written. `max_cells` > 0 stops
/// splitting there (the last cell keeps the rest). Reuses the storage of `cells`.
void split_csv_cells(const std::string& line, bool quotes, std::size_t max_cells, const std::string& where,
                     std::vector<std::string>& cells);

/// A cell as a writer must put it for split_csv_cells with `quotes` to read it back: line breaks
/// become spaces, and a cell with a comma, a quote or blanks at either end is quoted.
std::string csv_quoted_cell(const std::string& text);

/// Writes `# key=value` (line breaks in the value become spaces).
void write_metadata_line(std::ostream& out, const std::string& key, const std::string& value);

/// Streams a '#'-metadata CSV: the metadata lines and the header first (read_header), then one
/// row at a time (next_row), so that files of millions of rows need no more than one line.
/// Errors are InputError "PATH:LINE: ..." (text problems, over-long lines, quoting, ragged rows,
/// columns named twice in the header).
class MetadataCsvReader {
public:
    MetadataCsvReader(std::string path, MetadataCsvOptions options);

    /// Reads up to the header; false when the file ends first. Every column of `required` must
    /// be in the header: InputError "PATH:LINE: missing column 'X' in the header (required:
    /// A,B[; optional: C,D])" otherwise (`optional` only completes the message).
    bool read_header(const std::vector<std::string>& required = {}, const std::vector<std::string>& optional = {});
    /// Reads up to the header and splits it, checking nothing (to tell which kind of CSV a file is).
    bool read_header_cells();
    /// The next row's cells (as many as the header has); false at the end of the file.
    bool next_row();

    [[nodiscard]] const std::vector<std::string>& header() const { return header_; }
    [[nodiscard]] std::uint64_t header_line() const { return header_line_; }
    /// The index of `name` in the header, if there.
    [[nodiscard]] std::optional<std::size_t> column(const std::string& name) const;
    [[nodiscard]] const std::vector<std::string>& cells() const { return cells_; }
    /// Every metadata line read so far, in file order.
    [[nodiscard]] const std::vector<MetadataLine>& metadata() const { return metadata_; }
    /// The value of the last `# key=` line read so far, if any.
    [[nodiscard]] const MetadataLine* find_metadata(const std::string& key) const;

    /// 1-based number of the line last read.
    [[nodiscard]] std::uint64_t line_number() const { return lines_.line_number(); }
    /// "PATH:LINE" of the line last read.
    [[nodiscard]] std::string where() const { return lines_.where(); }
    [[nodiscard]] const std::string& path() const { return lines_.path(); }
    [[nodiscard]] const MetadataCsvOptions& options() const { return options_; }

private:
    /// The next line that is neither blank nor metadata; false at the end.
    bool next_data_line();

    MetadataCsvOptions options_;
    TextLineReader lines_;
    std::string line_;
    std::vector<MetadataLine> metadata_;
    std::vector<std::string> header_;
    std::uint64_t header_line_ = 0;
    std::vector<std::string> cells_;
    std::uint64_t bytes_ = 0;
};

/// One row of a whole table: its cells by column name, with errors naming file, line and column.
class CsvRow {
public:
    CsvRow(std::shared_ptr<const std::vector<std::string>> header, std::string path, std::uint64_t line,
           std::vector<std::string> cells);

    /// "PATH:LINE", for messages.
    [[nodiscard]] std::string where() const { return path_ + ":" + std::to_string(line_); }
    [[nodiscard]] std::uint64_t line() const { return line_; }
    [[nodiscard]] const std::vector<std::string>& cells() const { return cells_; }
    /// Whether the table has `column`.
    [[nodiscard]] bool has(const std::string& column) const;
    /// The cell as written; InputError "PATH:LINE: the header has no column 'X'" when the table has none.
    [[nodiscard]] const std::string& text(const std::string& column) const;
    /// A finite number; InputError "PATH:LINE: COLUMN must be a number, got '...'" otherwise.
    [[nodiscard]] double number(const std::string& column) const;
    /// An integer in [lo, hi]; InputError "PATH:LINE: COLUMN must be an integer LO..HI, got '...'" otherwise.
    [[nodiscard]] std::int64_t integer(const std::string& column, std::int64_t lo, std::int64_t hi) const;

private:
    std::shared_ptr<const std::vector<std::string>> header_;
    std::string path_;
    std::uint64_t line_;
    std::vector<std::string> cells_;
};

/// A whole '#'-metadata CSV in memory (for tables of measurements, not timelines of millions of rows).
struct MetadataCsv {
    std::string path;
    std::vector<MetadataLine> metadata;
    std::vector<std::string> header;  ///< empty when the file has no header
    std::uint64_t header_line = 0;
    std::vector<CsvRow> rows;

    /// The value of the last `# key=` line, if any.
    [[nodiscard]] std::optional<std::string> meta(const std::string& key) const;
    /// Every `# key=value` line as a map (a key given twice keeps its last value).
    [[nodiscard]] std::map<std::string, std::string> metadata_map() const;
};

/// Reads the whole of `path` (MetadataCsvReader's rules; `required` columns checked at the header).
MetadataCsv read_metadata_csv(const std::string& path, const MetadataCsvOptions& options,
                              const std::vector<std::string>& required = {});

}  // namespace gpusched
