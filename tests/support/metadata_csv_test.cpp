// support/metadata_csv: '# key=value' lines, the header, rows with line numbers, typed cells, quoting, and PATH:LINE errors.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

#include "gpusched/support/input_error.h"
#include "gpusched/support/metadata_csv.h"

using namespace gpusched;

namespace {

/// `text` in a file of the temporary directory named NAME-PID; its path.
std::string csv_file(const std::string& name, const std::string& text) {
    const auto path = std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()) + ".csv");
    std::ofstream(path, std::ios::binary) << text;
    return path.string();
}

std::string error_of(const std::string& path, const MetadataCsvOptions& options, const std::vector<std::string>& required = {}) {
    try {
        (void)read_metadata_csv(path, options, required);
    } catch (const InputError& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace

TEST_CASE("a metadata CSV: metadata lines anywhere, the header, rows with their source lines") {
    const std::string path = csv_file("gpusched-mcsv-good",
                                      "# runner measurements\n# device=H100 SXM\n#  sm_count = 132\n\n"
                                      "name,count,time_ms\n"
                                      "a,3,1.5\n"
                                      "# device=H200\n"
                                      "b,4,2e1\n");
    const MetadataCsv csv = read_metadata_csv(path, MetadataCsvOptions{}, {"count"});
    REQUIRE(csv.metadata.size() == 4);
    CHECK(csv.metadata[0].key.empty());  // a comment: no '='
    CHECK(csv.metadata[0].raw == "# runner measurements");
    CHECK(csv.metadata[2].key == "sm_count");   // the key trimmed,
    CHECK(csv.metadata[2].value == " 132");     // the value as written
    CHECK(csv.metadata[3].line == 7);
    CHECK(csv.meta("device") == "H200");        // the last line of a key wins
    CHECK(csv.metadata_map().at("device") == "H200");
    CHECK_FALSE(csv.meta("threads").has_value());
    CHECK(csv.header == std::vector<std::string>{"name", "count", "time_ms"});
    CHECK(csv.header_line == 5);
    REQUIRE(csv.rows.size() == 2);
    CHECK(csv.rows[0].line() == 6);
    CHECK(csv.rows[1].line() == 8);  // the metadata line between the rows is counted
    CHECK(csv.rows[1].where() == path + ":8");
    CHECK(csv.rows[0].text("name") == "a");
    CHECK(csv.rows[0].integer("count", 0, 10) == 3);
    CHECK(csv.rows[1].number("time_ms") == 20.0);
    CHECK(csv.rows[0].has("count"));
    CHECK_FALSE(csv.rows[0].has("threads"));
}

TEST_CASE("typed cells name the file, line and column") {
    const std::string path = csv_file("gpusched-mcsv-typed", "name,count\nx,abc\ny,11\n");
    const MetadataCsv csv = read_metadata_csv(path, MetadataCsvOptions{});
    CHECK_THROWS_WITH_AS((void)csv.rows[0].number("count"), (path + ":2: count must be a number, got 'abc'").c_str(),
                         InputError);
    CHECK_THROWS_WITH_AS((void)csv.rows[1].integer("count", 0, 10),
                         (path + ":3: count must be an integer 0..10, got '11'").c_str(), InputError);
    CHECK_THROWS_WITH_AS((void)csv.rows[1].text("size"), (path + ":3: the header has no column 'size'").c_str(), InputError);
}

TEST_CASE("bad metadata CSVs: PATH:LINE messages") {
    MetadataCsvOptions plain;
    plain.what = "test table";
    const std::string ragged = csv_file("gpusched-mcsv-ragged", "# m=1\na,b,c\n1,2,3\n1,2\n");
    CHECK(error_of(ragged, plain) == ragged + ":4: ragged row: 2 fields, but the header has 3");
    const std::string missing = csv_file("gpusched-mcsv-missing", "# m=1\na,b\n1,2\n");
    CHECK(error_of(missing, plain, {"a", "c"}) ==
          missing + ":2: missing column 'c' in the header (required: a,c)");
    const std::string twice = csv_file("gpusched-mcsv-twice", "a,b,a\n1,2,3\n");
    CHECK(error_of(twice, plain) == twice + ":1: column 'a' appears twice in the header");
    const std::string binary = csv_file("gpusched-mcsv-binary", std::string("a,b\n1,\x01\n"));
    CHECK(error_of(binary, plain) == binary + ":2: not a text test table (control byte 0x01 at column 3)");
    // A file cut mid-row: refused where the data comes from a writer that ends every line.
    const std::string cut = csv_file("gpusched-mcsv-cut", "a,b\n1,2\n3,4");
    CHECK(error_of(cut, plain) == "(no error)");
    MetadataCsvOptions runner = plain;
    runner.refuse_cut_line = true;
    CHECK(error_of(cut, runner).find(cut + ":3: the last line ends without a line break") == 0);
}

TEST_CASE("cells: quoted and trimmed, or as written with the last taking the rest") {
    std::vector<std::string> cells;
    split_csv_cells(" a , \"b,\"\"c\"\" \" ,", true, 0, "t.csv:1", cells);
    CHECK(cells == std::vector<std::string>{"a", "b,\"c\" ", ""});
    split_csv_cells(" a , b", false, 0, "t.csv:1", cells);
    CHECK(cells == std::vector<std::string>{" a ", " b"});
    split_csv_cells("1,2,x,y,z", false, 3, "t.csv:1", cells);  // the runner's unquoted last column
    CHECK(cells == std::vector<std::string>{"1", "2", "x,y,z"});
    CHECK_THROWS_WITH_AS(split_csv_cells("a,\"b", true, 0, "t.csv:4", cells), "t.csv:4: unterminated quote in a CSV field",
                         InputError);
    CHECK_THROWS_WITH_AS(split_csv_cells("\"a\"b,c", true, 0, "t.csv:5", cells),
                         "t.csv:5: text after a closing quote in a CSV field", InputError);
    // The writer's quoting reads back: a comma, a quote, blanks at the edges; line breaks become spaces.
    for (const std::string text : {"plain", "a,b", "say \"hi\"", " edge", "two\nlines"}) {
        const std::string line = csv_quoted_cell(text) + ",next";
        split_csv_cells(line, true, 0, "t.csv:1", cells);
        REQUIRE(cells.size() == 2);
        CHECK(cells[0] == (text == "two\nlines" ? std::string("two lines") : text));
    }
    std::ostringstream out;
    write_metadata_line(out, "workload", "a\r\nb");
    CHECK(out.str() == "# workload=a  b\n");
    const MetadataLine line = parse_metadata_line(out.str().substr(0, out.str().size() - 1), 3);
    CHECK(line.key == "workload");
    CHECK(line.value == "a  b");
}

TEST_CASE("the streaming reader: header once, rows one at a time, and a file without a header") {
    const std::string path = csv_file("gpusched-mcsv-stream", "# k=v\nx,y\n1,2\n\n3,4\n");
    MetadataCsvReader reader(path, MetadataCsvOptions{});
    REQUIRE(reader.read_header({"x"}));
    CHECK(reader.column("y") == 1u);
    CHECK_FALSE(reader.column("z").has_value());
    REQUIRE(reader.find_metadata("k") != nullptr);
    CHECK(reader.find_metadata("k")->line == 1);
    REQUIRE(reader.next_row());
    CHECK(reader.cells() == std::vector<std::string>{"1", "2"});
    REQUIRE(reader.next_row());
    CHECK(reader.line_number() == 5);  // the blank line is skipped, not counted as a row
    CHECK_FALSE(reader.next_row());
    MetadataCsvReader only_metadata(csv_file("gpusched-mcsv-empty", "# only=metadata\n\n"), MetadataCsvOptions{});
    CHECK_FALSE(only_metadata.read_header());
    CHECK(only_metadata.metadata().size() == 1);
}
