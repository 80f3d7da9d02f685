// '#'-metadata CSV files: metadata lines, cell splitting and quoting, the header, rows and typed cells.
#include "gpusched/support/metadata_csv.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "gpusched/support/csv_records.h"
#include "gpusched/support/input_error.h"
#include "gpusched/support/text.h"
#include "gpusched/support/yaml_fields.h"

namespace gpusched {

namespace {

std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& name : names) out += (out.empty() ? "" : ",") + name;
    return out;
}

/// A value on one line: CR and LF become spaces.
std::string one_line(std::string text) {
    for (char& c : text)
        if (c == '\n' || c == '\r') c = ' ';
    return text;
}

}  // namespace

MetadataLine parse_metadata_line(const std::string& raw, std::uint64_t line) {
    MetadataLine m;
    m.line = line;
    m.raw = raw;
    const std::size_t eq = raw.find('=');
    if (eq != std::string::npos) {
        m.key = trim(std::string_view(raw).substr(1, eq - 1));
        m.value = raw.substr(eq + 1);
    }
    return m;
}

void split_csv_cells(const std::string& line, bool quotes, std::size_t max_cells, const std::string& where,
                     std::vector<std::string>& cells) {
    if (quotes && line.find('"') != std::string::npos) {
        split_csv_record_line(line, CsvGrammar{true}, where, cells);
        return;
    }
    std::size_t count = 0, start = 0;  // the fast path: reuses the cells' storage
    while (true) {
        const bool last = max_cells > 0 && count + 1 == max_cells;
        const std::size_t comma = last ? line.size() : std::min(line.find(',', start), line.size());
        std::size_t b = start, e = comma;
        if (quotes) {
            while (b < e && is_blank(line[b])) ++b;
            while (e > b && is_blank(line[e - 1])) --e;
        }
        if (cells.size() <= count) cells.emplace_back();
        cells[count++].assign(line, b, e - b);
        if (comma == line.size()) break;
        start = comma + 1;
    }
    cells.resize(count);
}

std::string csv_quoted_cell(const std::string& text) {
    const std::string line = one_line(text);
    const bool blank_edge = !line.empty() && (is_blank(line.front()) || is_blank(line.back()));
    if (!blank_edge && line.find_first_of(",\"") == std::string::npos) return line;
    std::string quoted = "\"";
    for (const char c : line) {
        if (c == '"') quoted += '"';
        quoted += c;
    }
    return quoted + '"';
}

void write_metadata_line(std::ostream& out, const std::string& key, const std::string& value) {
    out << "# " << key << '=' << one_line(value) << '\n';
}

MetadataCsvReader::MetadataCsvReader(std::string path, MetadataCsvOptions options)
    : options_(std::move(options)), lines_(std::move(path), options_.what, options_.max_line) {}

bool MetadataCsvReader::next_data_line() {
    while (lines_.next(line_)) {
        if (line_.size() + 1 > options_.max_bytes - bytes_)
            throw InputError(path() + ": " + options_.what + " is larger than " + std::to_string(options_.max_bytes) +
                             " bytes");
        bytes_ += line_.size() + 1;
        if (options_.refuse_cut_line && lines_.line_unterminated())
            throw InputError(lines_.where() + ": the last line ends without a line break: the file was cut mid-row "
                                              "(the runner ends every line)");
        if (!line_.empty() && line_[0] == '#') {
            metadata_.push_back(parse_metadata_line(line_, lines_.line_number()));
            continue;
        }
        if (std::all_of(line_.begin(), line_.end(), is_blank)) continue;
        return true;
    }
    return false;
}

bool MetadataCsvReader::read_header_cells() {
    if (!next_data_line()) return false;
    split_csv_cells(line_, options_.quotes, 0, where(), header_);
    header_line_ = line_number();
    return true;
}

bool MetadataCsvReader::read_header(const std::vector<std::string>& required, const std::vector<std::string>& optional) {
    if (!read_header_cells()) return false;
    for (std::size_t i = 0; i < header_.size(); ++i)
        if (!header_[i].empty() && std::find(header_.begin(), header_.begin() + static_cast<std::ptrdiff_t>(i),
                                             header_[i]) != header_.begin() + static_cast<std::ptrdiff_t>(i))
            throw InputError(where() + ": column '" + header_[i] + "' appears twice in the header");
    for (const auto& name : required)
        if (!column(name))
            throw InputError(where() + ": missing column '" + name + "' in the header (required: " + joined(required) +
                             (optional.empty() ? "" : "; optional: " + joined(optional)) + ")");
    return true;
}

bool MetadataCsvReader::next_row() {
    if (!next_data_line()) return false;
    split_csv_cells(line_, options_.quotes, options_.last_takes_rest ? header_.size() : 0, where(), cells_);
    if (cells_.size() != header_.size())
        throw InputError(where() + ": ragged row: " + std::to_string(cells_.size()) + " fields, but the header has " +
                         std::to_string(header_.size()));
    return true;
}

std::optional<std::size_t> MetadataCsvReader::column(const std::string& name) const {
    const auto it = std::find(header_.begin(), header_.end(), name);
    if (it == header_.end()) return std::nullopt;
    return static_cast<std::size_t>(it - header_.begin());
}

const MetadataLine* MetadataCsvReader::find_metadata(const std::string& key) const {
    for (auto it = metadata_.rbegin(); it != metadata_.rend(); ++it)
        if (!it->key.empty() && it->key == key) return &*it;
    return nullptr;
}

CsvRow::CsvRow(std::shared_ptr<const std::vector<std::string>> header, std::string path, std::uint64_t line,
               std::vector<std::string> cells)
    : header_(std::move(header)), path_(std::move(path)), line_(line), cells_(std::move(cells)) {}

bool CsvRow::has(const std::string& column) const {
    return std::find(header_->begin(), header_->end(), column) != header_->end();
}

const std::string& CsvRow::text(const std::string& column) const {
    const auto it = std::find(header_->begin(), header_->end(), column);
    if (it == header_->end()) throw InputError(where() + ": the header has no column '" + column + "'");
    return cells_[static_cast<std::size_t>(it - header_->begin())];
}

double CsvRow::number(const std::string& column) const {
    const std::string& cell = text(column);
    const auto v = parse_number(cell);
    if (!v || !std::isfinite(*v)) throw InputError(where() + ": " + column + " must be a number, got '" + cell + "'");
    return *v;
}

std::int64_t CsvRow::integer(const std::string& column, std::int64_t lo, std::int64_t hi) const {
    const std::string& cell = text(column);
    const auto v = parse_integer(cell);
    if (!v || *v < lo || *v > hi)
        throw InputError(where() + ": " + column + " must be an integer " + std::to_string(lo) + ".." +
                         std::to_string(hi) + ", got '" + cell + "'");
    return *v;
}

std::optional<std::string> MetadataCsv::meta(const std::string& key) const {
    for (auto it = metadata.rbegin(); it != metadata.rend(); ++it)
        if (!it->key.empty() && it->key == key) return it->value;
    return std::nullopt;
}

std::map<std::string, std::string> MetadataCsv::metadata_map() const {
    std::map<std::string, std::string> out;
    for (const auto& m : metadata)
        if (!m.key.empty()) out[m.key] = m.value;
    return out;
}

MetadataCsv read_metadata_csv(const std::string& path, const MetadataCsvOptions& options,
                              const std::vector<std::string>& required) {
    MetadataCsvReader reader(path, options);
    MetadataCsv table;
    table.path = path;
    if (reader.read_header(required)) {
        table.header = reader.header();
        table.header_line = reader.header_line();
        const auto header = std::make_shared<const std::vector<std::string>>(table.header);
        while (reader.next_row()) table.rows.emplace_back(header, path, reader.line_number(), reader.cells());
    }
    table.metadata = reader.metadata();
    return table;
}

}  // namespace gpusched
