// RFC 4180 records: one parser for multi-line quoted records and for single lines, and the quoting writer.
#include "gpusched/support/csv_records.h"

#include "gpusched/support/input_error.h"
#include "gpusched/support/text.h"

namespace gpusched {

namespace {

std::string where_at(const std::string& source, std::size_t line) { return source + ":" + std::to_string(line); }

/// Trailing blanks of an unquoted cell.
void trim_back(std::string& cell) {
    while (!cell.empty() && is_blank(cell.back())) cell.pop_back();
}

/// Parses the record of data cells starting at text[pos] (not a '#' line) into `cells`; on return pos
/// is at the line break that ends it, or at the end of the text. `line` counts line breaks inside
/// quoted cells. `where` names the record's first line in messages.
void parse_cells(std::string_view text, std::size_t& pos, std::size_t& line, CsvGrammar grammar,
                 const std::string& where, std::vector<std::string>& cells) {
    std::size_t count = 0;
    std::string cell;
    bool in_quotes = false, was_quoted = false;
    const auto finish_cell = [&] {
        if (grammar.trim_blanks && !was_quoted) trim_back(cell);
        if (cells.size() <= count) cells.emplace_back();
        cells[count++].swap(cell);
        cell.clear();
        was_quoted = false;
    };
    while (true) {
        if (pos >= text.size()) {
            if (in_quotes) throw InputError(where + ": unterminated quote in a CSV field");
            finish_cell();
            break;
        }
        const char c = text[pos];
        if (in_quotes) {
            if (c == '"' && pos + 1 < text.size() && text[pos + 1] == '"') {
                cell += '"';
                pos += 2;
                continue;
            }
            if (c == '"') in_quotes = false;
            else cell += c;
            if (c == '\n') ++line;
            ++pos;
            continue;
        }
        if (c == ',') {
            finish_cell();
            ++pos;
            continue;
        }
        if (c == '\n' || c == '\r') {
            finish_cell();
            break;
        }
        if (was_quoted) {
            if (!(grammar.trim_blanks && is_blank(c))) throw InputError(where + ": text after a closing quote in a CSV field");
        } else if (c == '"' && cell.empty()) {
            in_quotes = was_quoted = true;
        } else if (!(grammar.trim_blanks && cell.empty() && is_blank(c))) {
            cell += c;
        }
        ++pos;
    }
    cells.resize(count);
}

}  // namespace

std::vector<CsvRecord> read_csv_records(std::string_view text, const std::string& source, std::size_t first_line,
                                        CsvGrammar grammar) {
    std::vector<CsvRecord> records;
    std::size_t pos = 0;
    std::size_t line = first_line;
    while (pos < text.size()) {
        if (text[pos] == '\n' || text[pos] == '\r') {
            line += text[pos] == '\n' ? 1 : 0;
            ++pos;
            continue;
        }
        CsvRecord record;
        record.line = line;
        const std::size_t start = pos;
        if (text[pos] == '#') {
            pos = std::min(text.find('\n', pos), text.size());
        } else {
            parse_cells(text, pos, line, grammar, where_at(source, record.line), record.cells);
        }
        std::size_t end = pos;
        if (end > start && text[end - 1] == '\r') --end;
        record.raw = std::string(text.substr(start, end - start));
        records.push_back(std::move(record));
    }
    return records;
}

void split_csv_record_line(std::string_view line, CsvGrammar grammar, const std::string& where,
                           std::vector<std::string>& cells) {
    std::size_t pos = 0, lines = 0;
    parse_cells(line, pos, lines, grammar, where, cells);
}

bool csv_quote_open_at_end(std::string_view line, bool open_at_start) {
    bool open = open_at_start;
    if (!open && !line.empty() && line.front() == '#') return false;  // a metadata line
    bool cell_empty = true;
    bool was_quoted = open;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (open) {
            if (c == '"') {
                if (i + 1 < line.size() && line[i + 1] == '"') ++i;  // a doubled quote: one quote in the cell
                else open = false;
            }
            cell_empty = false;
            continue;
        }
        if (c == '"' && cell_empty && !was_quoted) {
            open = was_quoted = true;
        } else if (c == ',') {
            cell_empty = true;
            was_quoted = false;
        } else {
            cell_empty = false;
        }
    }
    return open;
}

std::string csv_cell(std::string_view text) {
    const bool quote = text.find_first_of(",\"\r\n") != std::string_view::npos ||
                       (!text.empty() && (text.front() == ' ' || text.back() == ' ' || text.front() == '#'));
    if (!quote) return std::string(text);
    std::string out = "\"";
    for (char c : text) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

std::string csv_row(const std::vector<std::string>& cells) {
    std::string out;
    for (std::size_t i = 0; i < cells.size(); ++i) {
        if (i) out += ',';
        out += csv_cell(cells[i]);
    }
    return out + "\n";
}

}  // namespace gpusched
