// The RFC 4180 record grammar: cells quoted only where needed, and records read back exactly, errors located.
#include <doctest/doctest.h>

#include "gpusched/support/input_error.h"
#include "gpusched/support/csv_records.h"

using namespace gpusched;

TEST_CASE("cells are quoted only when they must be") {
    CHECK(csv_cell("plain") == "plain");
    CHECK(csv_cell("") == "");
    CHECK(csv_cell("a,b") == "\"a,b\"");
    CHECK(csv_cell("say \"hi\"") == "\"say \"\"hi\"\"\"");
    CHECK(csv_cell("two\nlines") == "\"two\nlines\"");
    CHECK(csv_cell(" padded") == "\" padded\"");
    CHECK(csv_cell("#not a comment") == "\"#not a comment\"");
    CHECK(csv_row({"1", "a,b", ""}) == "1,\"a,b\",\n");
}

TEST_CASE("the reader gives back what csv_row wrote, raw text included") {
    const std::vector<std::string> cells = {"7", "x,y", "q\"uote", "multi\nline", "", "#hash", " sp "};
    const std::string text = "# meta\n" + csv_row(cells) + csv_row({"8", "z"});
    const auto records = read_csv_records(text, "t.csv");
    REQUIRE(records.size() == 3);
    CHECK(records[0].cells.empty());
    CHECK(records[0].raw == "# meta");
    CHECK(records[1].cells == cells);
    CHECK(records[1].raw + "\n" == csv_row(cells));
    CHECK(records[1].line == 2);
    CHECK(records[2].line == 4);
    CHECK(records[2].cells == std::vector<std::string>{"8", "z"});
}

TEST_CASE("broken quoting is an error naming the line") {
    CHECK_THROWS_WITH_AS(read_csv_records("a,b\n1,\"open\n", "t.csv"),
                         doctest::Contains("t.csv:2: unterminated quote in a CSV field"), InputError);
    CHECK_THROWS_WITH_AS(read_csv_records("\"a\"b,c\n", "t.csv"), doctest::Contains("t.csv:1: text after"),
                         InputError);
}
