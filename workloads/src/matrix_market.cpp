// Matrix Market parsing: banner, size line and entries, each problem an InputError naming FILE:LINE.
#include "gpusched/workloads/matrix_market.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <vector>

#include "gpusched/support/input_error.h"
#include "gpusched/support/text_file.h"

namespace gpusched::workloads {

namespace {

constexpr std::size_t kEcho = 40;
constexpr std::uint64_t kRowsFloor = std::uint64_t{1} << 20;  // characters of a bad token or line quoted in messages
constexpr const char* kBanner = "'%%MatrixMarket matrix FORMAT FIELD SYMMETRY'";

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string echo(std::string_view s) {
    return "'" + std::string(s.substr(0, kEcho)) + (s.size() > kEcho ? "...'" : "'");
}

std::vector<std::string_view> fields_of(std::string_view line) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
        const std::size_t start = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
        if (i > start) out.push_back(line.substr(start, i - start));
    }
    return out;
}

/// Consumes the lines of one file in order and builds the pattern.
class Parser {
public:
    Parser(std::string name, const MatrixMarketLimits& limits) : name_(std::move(name)), limits_(limits) {}

    void line(std::string_view text, std::uint64_t number) {
        line_ = number;
        if (state_ == State::banner) return banner(text);
        const std::vector<std::string_view> tokens = fields_of(text);
        if (tokens.empty() || tokens.front().front() == '%') return;  // blank line or comment
        if (state_ == State::size) return size_line(tokens);
        entry(tokens);
    }

    MatrixMarketMatrix finish(std::uint64_t last_line) {
        line_ = std::max<std::uint64_t>(last_line, 1);
        if (state_ == State::banner) fail("empty file (expected the banner " + std::string(kBanner) + ")");
        if (state_ == State::size) fail("the file ends before the size line");
        if (seen_ < expected_)
            fail("the file ends after " + std::to_string(seen_) + " of the " + std::to_string(expected_) +
                 " entries the size line (line " + std::to_string(size_line_) + ") declares");
        MatrixMarketMatrix m;
        m.header = header_;
        m.file_entries = seen_;
        m.pattern = pattern_from_entries(rows_, cols_, std::move(entries_));
        return m;
    }

private:
    enum class State { banner, size, entries };

    [[noreturn]] void fail(const std::string& what) const {
        throw InputError(name_ + ":" + std::to_string(line_) + ": " + what);
    }

    void banner(std::string_view text) {
        const std::vector<std::string_view> t = fields_of(text);
        if (t.empty() || lower(t[0]) != "%%matrixmarket")
            fail("not a Matrix Market file: expected the banner " + std::string(kBanner) + ", got " + echo(text));
        if (t.size() != 5)
            fail("expected the banner " + std::string(kBanner) + " (5 words), got " + std::to_string(t.size()) +
                 " words");
        if (lower(t[1]) != "matrix") fail("object " + echo(t[1]) + " is not supported (supported: matrix)");
        header_.format = lower(t[2]);
        header_.field = lower(t[3]);
        header_.symmetry = lower(t[4]);
        if (header_.format != "coordinate" && header_.format != "array")
            fail("format " + echo(t[2]) + " is not supported (supported: coordinate, array)");
        if (header_.field != "real" && header_.field != "integer" && header_.field != "pattern")
            fail("field " + echo(t[3]) + " is not supported (supported: real, integer, pattern)");
        if (header_.symmetry != "general" && header_.symmetry != "symmetric" && header_.symmetry != "skew-symmetric")
            fail("symmetry " + echo(t[4]) + " is not supported (supported: general, symmetric, skew-symmetric)");
        if (header_.format == "array" && header_.field == "pattern")
            fail("an 'array' file cannot have field 'pattern' (it lists values)");
        state_ = State::size;
    }

    std::uint64_t count(std::string_view token, const char* what, std::uint64_t max) const {
        std::uint64_t value = 0;
        const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
        if (ec == std::errc::result_out_of_range || (ec == std::errc{} && end == token.data() + token.size() &&
                                                     value > max))
            fail(std::string(what) + " " + echo(token) + " is beyond the limit " + std::to_string(max));
        if (ec != std::errc{} || end != token.data() + token.size())
            fail(std::string(what) + ": expected a non-negative integer, got " + echo(token));
        return value;
    }

    void size_line(const std::vector<std::string_view>& t) {
        const bool coordinate = header_.format == "coordinate";
        const std::size_t want = coordinate ? 3 : 2;
        if (t.size() != want)
            fail(std::string("expected the size line '") + (coordinate ? "ROWS COLS ENTRIES" : "ROWS COLS") + "', got " +
                 std::to_string(t.size()) + " fields");
        rows_ = count(t[0], "rows", limits_.max_rows);
        cols_ = count(t[1], "columns", limits_.max_cols);
        if (rows_ == 0 || cols_ == 0) fail("the matrix must have at least one row and one column");
        const bool mirrored = header_.symmetry != "general";
        if (mirrored && rows_ != cols_)
            fail("a " + header_.symmetry + " matrix must be square, got " + std::to_string(rows_) + " x " +
                 std::to_string(cols_));
        const std::uint64_t cap = limits_.max_entries;
        if (coordinate) {
            expected_ = count(t[2], "entries", mirrored ? cap / 2 : cap);
        } else if (header_.symmetry == "general") {
            // rows <= 2^26 and cols < 2^31: the product fits in 64 bits.
            expected_ = rows_ * cols_;
        } else {
            const std::uint64_t n = rows_;
            expected_ = header_.symmetry == "symmetric" ? n * (n + 1) / 2 : n * (n - 1) / 2;
        }
        // The CSR offsets cost 8 bytes per row: a short file must not make them huge. A sparse file
        // may have at most 64 rows per entry (or 2^20 rows), so memory stays proportional to its size.
        if (coordinate && rows_ > std::max<std::uint64_t>(kRowsFloor, 64 * expected_))
            fail(std::to_string(rows_) + " rows for " + std::to_string(expected_) +
                 " entries: at most max(2^20, 64 x entries) rows are accepted");
        const std::uint64_t stored = coordinate && mirrored ? 2 * expected_ : expected_;
        if (stored > cap) fail("the matrix has " + std::to_string(stored) + " entries; at most " + std::to_string(cap));
        entries_.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(stored, std::uint64_t{1} << 16)));
        array_row_ = header_.symmetry == "skew-symmetric" ? 1 : 0;
        size_line_ = line_;
        state_ = State::entries;
    }

    void value(std::string_view token) const {
        if (!token.empty() && token.front() == '+') token.remove_prefix(1);
        const char* end = token.data() + token.size();
        if (header_.field == "integer") {
            std::int64_t v = 0;
            const auto r = std::from_chars(token.data(), end, v);
            if (r.ec != std::errc{} || r.ptr != end) fail("value: expected an integer, got " + echo(token));
            return;
        }
        double v = 0;
        const auto r = std::from_chars(token.data(), end, v);
        if (r.ec != std::errc{} || r.ptr != end || !std::isfinite(v))
            fail("value: expected a finite real number, got " + echo(token));
    }

    std::uint32_t index(std::string_view token, const char* what, std::uint64_t max) const {
        std::uint64_t v = 0;
        const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
        if (ec != std::errc{} || end != token.data() + token.size()) {
            if (ec == std::errc::result_out_of_range)
                fail(std::string(what) + " index " + echo(token) + " is outside 1.." + std::to_string(max));
            fail(std::string(what) + " index: expected a positive integer, got " + echo(token));
        }
        if (v < 1 || v > max) fail(std::string(what) + " index " + std::to_string(v) + " is outside 1.." + std::to_string(max));
        return static_cast<std::uint32_t>(v - 1);
    }

    void entry(const std::vector<std::string_view>& t) {
        if (seen_ == expected_)
            fail("more entries than the " + std::to_string(expected_) + " the size line (line " +
                 std::to_string(size_line_) + ") declares");
        ++seen_;
        if (header_.format == "array") {
            if (t.size() != 1) fail("expected one value per line in an 'array' file, got " + std::to_string(t.size()) + " fields");
            value(t[0]);
            // Column-major; symmetric files list the lower triangle, skew-symmetric ones below the diagonal.
            add(array_row_, array_col_);
            if (++array_row_ == rows_) {
                ++array_col_;
                array_row_ = header_.symmetry == "general"     ? 0
                             : header_.symmetry == "symmetric" ? array_col_
                                                               : array_col_ + 1;
            }
            return;
        }
        const bool pattern = header_.field == "pattern";
        const std::size_t want = pattern ? 2 : 3;
        if (t.size() != want)
            fail(std::string("expected '") + (pattern ? "ROW COL" : "ROW COL VALUE") + "' (" + std::to_string(want) +
                 " fields), got " + std::to_string(t.size()));
        const std::uint32_t row = index(t[0], "row", rows_);
        const std::uint32_t col = index(t[1], "column", cols_);
        if (!pattern) value(t[2]);
        if (header_.symmetry == "skew-symmetric" && row == col)
            fail("a skew-symmetric matrix has no diagonal entries, got (" + std::to_string(row + 1) + ", " +
                 std::to_string(col + 1) + ")");
        add(row, col);
    }

    void add(std::uint64_t row, std::uint64_t col) {
        entries_.push_back({static_cast<std::uint32_t>(row), static_cast<std::uint32_t>(col)});
        if (header_.symmetry != "general" && row != col)
            entries_.push_back({static_cast<std::uint32_t>(col), static_cast<std::uint32_t>(row)});
    }

    std::string name_;
    MatrixMarketLimits limits_;
    State state_ = State::banner;
    MatrixMarketHeader header_;
    std::uint64_t line_ = 0;
    std::uint64_t size_line_ = 0;
    std::uint64_t rows_ = 0, cols_ = 0;
    std::uint64_t expected_ = 0, seen_ = 0;
    std::uint64_t array_row_ = 0, array_col_ = 0;
    std::vector<SparseEntry> entries_;
};

}  // namespace

MatrixMarketMatrix read_matrix_market(const std::string& path, const MatrixMarketLimits& limits) {
    TextLineReader reader(path, "Matrix Market file", static_cast<std::size_t>(limits.max_line));
    Parser parser(path, limits);
    std::string line;
    while (reader.next(line)) parser.line(line, reader.line_number());
    return parser.finish(reader.line_number());
}

MatrixMarketMatrix parse_matrix_market(std::string_view text, const std::string& name,
                                       const MatrixMarketLimits& limits) {
    Parser parser(name, limits);
    std::uint64_t number = 0;
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        std::string line(text.substr(pos, end - pos));
        pos = end + 1;
        ++number;
        const std::string where = name + ":" + std::to_string(number);
        if (line.size() > limits.max_line)
            throw InputError(where + ": line longer than " + std::to_string(limits.max_line) +
                             " bytes in Matrix Market file");
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (number == 1 && line.compare(0, 3, "\xEF\xBB\xBF") == 0) line.erase(0, 3);
        const std::string problem = text_line_problem(line);
        if (!problem.empty()) throw InputError(where + ": not a text Matrix Market file (" + problem + ")");
        parser.line(line, number);
    }
    return parser.finish(number);
}

}  // namespace gpusched::workloads
