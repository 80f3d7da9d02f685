// Matrix Market reader: every header variant, symmetric mirroring, and each malformed input's FILE:LINE message.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "gpusched/support/input_error.h"
#include "gpusched/workloads/matrix_market.h"

using namespace gpusched;
using namespace gpusched::workloads;

namespace {

MatrixMarketMatrix parse(const std::string& text) { return parse_matrix_market(text, "m.mtx"); }

std::vector<std::uint64_t> lengths(const SparsePattern& p) {
    std::vector<std::uint64_t> out;
    for (std::uint64_t r = 0; r < p.rows; ++r) out.push_back(p.row_length(r));
    return out;
}

void check_bad(const std::string& text, const std::string& message) {
    CAPTURE(text);
    CHECK_THROWS_WITH_AS(parse(text), message.c_str(), InputError);
}

const std::string kCoordinateReal = "%%MatrixMarket matrix coordinate real general\n";

}  // namespace

TEST_CASE("matrix market: coordinate real general, comments and blank lines, CSR sorted by row and column") {
    const auto m = parse(kCoordinateReal +
                         "% a comment\n"
                         "\n"
                         "3 4 5\n"
                         "3 4 1.5e0\n"
                         "1 2 -2\n"
                         "  1   1\t+3.25\n"
                         "3 1 4\n"
                         "\n"
                         "2 3 0\n");
    CHECK(m.header.format == "coordinate");
    CHECK(m.header.field == "real");
    CHECK(m.header.symmetry == "general");
    CHECK(m.file_entries == 5);
    const SparsePattern& p = m.pattern;
    p.check();
    CHECK(p.rows == 3);
    CHECK(p.cols == 4);
    CHECK(p.row_offsets == std::vector<std::uint64_t>{0, 2, 3, 5});
    CHECK(p.col_indices == std::vector<std::uint32_t>{0, 1, 2, 0, 3});  // explicit zeros are stored entries
    CHECK(p.max_row_length() == 2);
}

TEST_CASE("matrix market: integer and pattern fields, case-insensitive banner, CRLF, repeats merged") {
    const auto i = parse("%%MatrixMarket MATRIX Coordinate INTEGER General\r\n2 2 3\r\n1 1 7\r\n2 2 -9\r\n1 1 1\r\n");
    CHECK(i.header.field == "integer");
    CHECK(i.file_entries == 3);
    CHECK(i.pattern.nnz() == 2);  // (1,1) twice: one stored entry
    const auto p = parse("%%MatrixMarket matrix coordinate pattern general\n2 3 2\n2 3\n1 2\n");
    CHECK(p.header.field == "pattern");
    CHECK(lengths(p.pattern) == std::vector<std::uint64_t>{1, 1});
}

TEST_CASE("matrix market: symmetric files get the mirror of every off-diagonal entry, the diagonal once") {
    // Lower triangle of a 4x4: diagonal (1,1), (4,4) and off-diagonal (2,1), (3,1), (4,3):
    // 5 listed, 2 + 2 x 3 = 8 stored. Rows: 0 -> {0,1,2}; 1 -> {0}; 2 -> {0,3}; 3 -> {2,3}.
    const auto m = parse("%%MatrixMarket matrix coordinate real symmetric\n4 4 5\n1 1 1\n2 1 1\n3 1 1\n4 3 1\n4 4 1\n");
    CHECK(m.file_entries == 5);
    CHECK(m.pattern.nnz() == 8);
    CHECK(lengths(m.pattern) == std::vector<std::uint64_t>{3, 1, 2, 2});
    CHECK(m.pattern.col_indices == std::vector<std::uint32_t>{0, 1, 2, 0, 0, 3, 2, 3});
    // Skew-symmetric: no diagonal; (2,1) and (3,2) -> 4 stored.
    const auto s = parse("%%MatrixMarket matrix coordinate integer skew-symmetric\n3 3 2\n2 1 5\n3 2 -1\n");
    CHECK(s.pattern.nnz() == 4);
    CHECK(lengths(s.pattern) == std::vector<std::uint64_t>{1, 2, 1});
    // Pattern symmetric.
    const auto q = parse("%%MatrixMarket matrix coordinate pattern symmetric\n2 2 2\n1 1\n2 1\n");
    CHECK(lengths(q.pattern) == std::vector<std::uint64_t>{2, 1});
}

TEST_CASE("matrix market: array files, column-major, general and symmetric") {
    // 2x3 general: 6 values, every entry stored (zeros included).
    const auto g = parse("%%MatrixMarket matrix array real general\n% c\n2 3\n1\n0\n2\n3\n4\n5\n");
    CHECK(g.header.format == "array");
    CHECK(g.pattern.nnz() == 6);
    CHECK(lengths(g.pattern) == std::vector<std::uint64_t>{3, 3});
    // 3x3 symmetric: the lower triangle, 3 x 4 / 2 = 6 values, mirrored to all 9.
    const auto s = parse("%%MatrixMarket matrix array integer symmetric\n3 3\n1\n2\n3\n4\n5\n6\n");
    CHECK(s.file_entries == 6);
    CHECK(s.pattern.nnz() == 9);
    // 3x3 skew-symmetric: 3 values below the diagonal, mirrored to 6.
    const auto k = parse("%%MatrixMarket matrix array real skew-symmetric\n3 3\n1\n2\n3\n");
    CHECK(k.pattern.nnz() == 6);
    CHECK(lengths(k.pattern) == std::vector<std::uint64_t>{2, 2, 2});
}

TEST_CASE("matrix market: a UTF-8 byte order mark and a missing final newline are accepted") {
    const auto m = parse("\xEF\xBB\xBF" + kCoordinateReal + "1 1 1\n1 1 2");
    CHECK(m.pattern.nnz() == 1);
}

TEST_CASE("matrix market: malformed banners and headers name the file and line") {
    check_bad("", "m.mtx:1: empty file (expected the banner '%%MatrixMarket matrix FORMAT FIELD SYMMETRY')");
    check_bad("1 1 1\n", "m.mtx:1: not a Matrix Market file: expected the banner '%%MatrixMarket matrix FORMAT "
                         "FIELD SYMMETRY', got '1 1 1'");
    check_bad("%%MatrixMarket matrix coordinate real\n",
              "m.mtx:1: expected the banner '%%MatrixMarket matrix FORMAT FIELD SYMMETRY' (5 words), got 4 words");
    check_bad("%%MatrixMarket vector coordinate real general\n",
              "m.mtx:1: object 'vector' is not supported (supported: matrix)");
    check_bad("%%MatrixMarket matrix sparse real general\n",
              "m.mtx:1: format 'sparse' is not supported (supported: coordinate, array)");
    check_bad("%%MatrixMarket matrix coordinate complex general\n",
              "m.mtx:1: field 'complex' is not supported (supported: real, integer, pattern)");
    check_bad("%%MatrixMarket matrix coordinate real hermitian\n",
              "m.mtx:1: symmetry 'hermitian' is not supported (supported: general, symmetric, skew-symmetric)");
    check_bad("%%MatrixMarket matrix array pattern general\n",
              "m.mtx:1: an 'array' file cannot have field 'pattern' (it lists values)");
    check_bad(kCoordinateReal + "% only comments\n", "m.mtx:2: the file ends before the size line");
    check_bad(kCoordinateReal + "3 3\n", "m.mtx:2: expected the size line 'ROWS COLS ENTRIES', got 2 fields");
    check_bad("%%MatrixMarket matrix array real general\n3 3 9\n",
              "m.mtx:2: expected the size line 'ROWS COLS', got 3 fields");
    check_bad(kCoordinateReal + "3 x 1\n", "m.mtx:2: columns: expected a non-negative integer, got 'x'");
    check_bad(kCoordinateReal + "-3 3 1\n", "m.mtx:2: rows: expected a non-negative integer, got '-3'");
    check_bad(kCoordinateReal + "0 3 0\n", "m.mtx:2: the matrix must have at least one row and one column");
    check_bad("%%MatrixMarket matrix coordinate real symmetric\n3 4 1\n",
              "m.mtx:2: a symmetric matrix must be square, got 3 x 4");
}

TEST_CASE("matrix market: bad entries name the file and line") {
    check_bad(kCoordinateReal + "2 2 1\n3 1 1\n", "m.mtx:3: row index 3 is outside 1..2");
    check_bad(kCoordinateReal + "2 2 1\n1 0 1\n", "m.mtx:3: column index 0 is outside 1..2");
    check_bad(kCoordinateReal + "2 2 1\n1 99999999999999999999999 1\n",
              "m.mtx:3: column index '99999999999999999999999' is outside 1..2");
    check_bad(kCoordinateReal + "2 2 1\n1 1.5 1\n", "m.mtx:3: column index: expected a positive integer, got '1.5'");
    check_bad(kCoordinateReal + "2 2 1\n1 1 abc\n", "m.mtx:3: value: expected a finite real number, got 'abc'");
    check_bad(kCoordinateReal + "2 2 1\n1 1 nan\n", "m.mtx:3: value: expected a finite real number, got 'nan'");
    check_bad(kCoordinateReal + "2 2 1\n1 1 1e999\n", "m.mtx:3: value: expected a finite real number, got '1e999'");
    check_bad("%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 2.5\n",
              "m.mtx:3: value: expected an integer, got '2.5'");
    check_bad(kCoordinateReal + "2 2 1\n1 1\n", "m.mtx:3: expected 'ROW COL VALUE' (3 fields), got 2");
    check_bad("%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 1 1\n",
              "m.mtx:3: expected 'ROW COL' (2 fields), got 3");
    check_bad("%%MatrixMarket matrix array real general\n1 2\n1 2\n",
              "m.mtx:3: expected one value per line in an 'array' file, got 2 fields");
    check_bad("%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 2 1\n",
              "m.mtx:3: a skew-symmetric matrix has no diagonal entries, got (2, 2)");
}

TEST_CASE("matrix market: wrong entry counts and truncated files") {
    check_bad(kCoordinateReal + "2 2 1\n1 1 1\n2 2 1\n",
              "m.mtx:4: more entries than the 1 the size line (line 2) declares");
    check_bad(kCoordinateReal + "2 2 3\n1 1 1\n2 2 1\n",
              "m.mtx:4: the file ends after 2 of the 3 entries the size line (line 2) declares");
    check_bad("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n",
              "m.mtx:5: the file ends after 3 of the 4 entries the size line (line 2) declares");
}

TEST_CASE("matrix market: binary junk and absurd sizes are rejected before any allocation") {
    check_bad(kCoordinateReal + "2 2 1\n1 1 \x01\n", "m.mtx:3: not a text Matrix Market file (control byte 0x01 at column 5)");
    check_bad(std::string("%%MatrixMarket\0\xff", 16), "m.mtx:1: not a text Matrix Market file (contains NUL bytes)");
    check_bad(kCoordinateReal + "\xff\xfe\n", "m.mtx:2: not a text Matrix Market file (invalid UTF-8 byte 0xff at column 1)");
    check_bad(kCoordinateReal + "99999999999 2 1\n", "m.mtx:2: rows '99999999999' is beyond the limit 67108864");
    check_bad(kCoordinateReal + "2 99999999999 1\n", "m.mtx:2: columns '99999999999' is beyond the limit 2147483647");
    check_bad(kCoordinateReal + "2 2 99999999999999\n", "m.mtx:2: entries '99999999999999' is beyond the limit 2147483648");
    check_bad("%%MatrixMarket matrix array real general\n67108864 2147483647\n",
              "m.mtx:2: the matrix has 144115188008747008 entries; at most 2147483648");
    check_bad(kCoordinateReal + "2000000 2 1\n",
              "m.mtx:2: 2000000 rows for 1 entries: at most max(2^20, 64 x entries) rows are accepted");
    check_bad(kCoordinateReal + "67108864 2 2\n",  // the last line's entry count would allow 128 rows
              "m.mtx:2: 67108864 rows for 2 entries: at most max(2^20, 64 x entries) rows are accepted");
    CHECK(parse(kCoordinateReal + "1048576 2 1\n1 1 1\n").pattern.rows == 1048576);
    check_bad("%%MatrixMarket matrix coordinate real symmetric\n5 5 1073741825\n",
              "m.mtx:2: entries '1073741825' is beyond the limit 1073741824");
    MatrixMarketLimits small;
    small.max_line = 32;
    CHECK_THROWS_WITH_AS(parse_matrix_market(kCoordinateReal, "m.mtx", small),
                         "m.mtx:1: line longer than 32 bytes in Matrix Market file", InputError);
}

TEST_CASE("matrix market: files on disk, and a missing file") {
    const std::string dir = std::string(GPUSCHED_SOURCE_DIR) + "/tests/workloads/data/spmv/";
    const auto m = read_matrix_market(dir + "lengths_1_2_3_10.mtx");
    CHECK(lengths(m.pattern) == std::vector<std::uint64_t>{1, 2, 3, 10});
    CHECK_THROWS_WITH_AS(read_matrix_market(dir + "truncated.mtx"),
                         doctest::Contains("truncated.mtx:5: the file ends after 3 of the 4 entries"), InputError);
    CHECK_THROWS_WITH_AS(read_matrix_market(dir + "nope.mtx"), doctest::Contains("nope.mtx: cannot read"), InputError);
    CHECK_THROWS_WITH_AS(read_matrix_market(dir + "binary.mtx"), doctest::Contains("binary.mtx:2: not a text"),
                         InputError);
}

TEST_CASE("matrix market: parsing is deterministic and equal from text and from disk") {
    const std::string dir = std::string(GPUSCHED_SOURCE_DIR) + "/tests/workloads/data/spmv/";
    const auto a = read_matrix_market(dir + "lengths_1_2_3_10.mtx");
    const auto b = read_matrix_market(dir + "lengths_1_2_3_10.mtx");
    CHECK(a.pattern == b.pattern);
}
