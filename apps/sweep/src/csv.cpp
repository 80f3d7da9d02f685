// CSV cells and records: RFC 4180 quoting and a quote-aware reader with located errors.
#include "gpusched/sweep/csv.h"

#include "gpusched/support/input_error.h"

namespace gpusched::sweep {

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

std::vector<CsvRecord> read_csv_records(std::string_view text, const std::string& source, std::size_t first_line) {
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
            const std::size_t end = std::min(text.find('\n', pos), text.size());
            record.raw = std::string(text.substr(start, end - start));
            if (!record.raw.empty() && record.raw.back() == '\r') record.raw.pop_back();
            records.push_back(std::move(record));
            pos = end;
            continue;
        }
        std::string cell;
        bool in_quotes = false;
        bool was_quoted = false;
        while (true) {
            if (pos >= text.size()) {
                if (in_quotes)
                    throw InputError(source + ":" + std::to_string(record.line) + ": unterminated quoted cell");
                record.cells.push_back(std::move(cell));
                break;
            }
            const char c = text[pos];
            if (in_quotes) {
                if (c == '"') {
                    if (pos + 1 < text.size() && text[pos + 1] == '"') {
                        cell += '"';
                        pos += 2;
                        continue;
                    }
                    in_quotes = false;
                    ++pos;
                    if (pos < text.size() && text[pos] != ',' && text[pos] != '\n' && text[pos] != '\r')
                        throw InputError(source + ":" + std::to_string(line) + ": text after a closing quote");
                    continue;
                }
                if (c == '\n') ++line;
                cell += c;
                ++pos;
                continue;
            }
            if (c == '"' && cell.empty() && !was_quoted) {
                in_quotes = was_quoted = true;
                ++pos;
                continue;
            }
            if (c == ',') {
                record.cells.push_back(std::move(cell));
                cell.clear();
                was_quoted = false;
                ++pos;
                continue;
            }
            if (c == '\n' || c == '\r') {
                record.cells.push_back(std::move(cell));
                break;
            }
            cell += c;
            ++pos;
        }
        std::size_t end = pos;
        if (end > start && text[end - 1] == '\r') --end;
        record.raw = std::string(text.substr(start, end - start));
        records.push_back(std::move(record));
    }
    return records;
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

}  // namespace gpusched::sweep
