// CSV cells: quoting where needed, and a reader that gives the cells back.
#include <doctest/doctest.h>

#include "gpusched/support/input_error.h"
#include "gpusched/sweep/csv.h"

using namespace gpusched;

TEST_CASE("cells are quoted only when they must be") {
    CHECK(sweep::csv_cell("plain") == "plain");
    CHECK(sweep::csv_cell("") == "");
    CHECK(sweep::csv_cell("a,b") == "\"a,b\"");
    CHECK(sweep::csv_cell("say \"hi\"") == "\"say \"\"hi\"\"\"");
    CHECK(sweep::csv_cell("two\nlines") == "\"two\nlines\"");
    CHECK(sweep::csv_cell(" padded") == "\" padded\"");
    CHECK(sweep::csv_cell("#not a comment") == "\"#not a comment\"");
    CHECK(sweep::csv_row({"1", "a,b", ""}) == "1,\"a,b\",\n");
}

TEST_CASE("the reader gives back what csv_row wrote, raw text included") {
    const std::vector<std::string> cells = {"7", "x,y", "q\"uote", "multi\nline", "", "#hash", " sp "};
    const std::string text = "# meta\n" + sweep::csv_row(cells) + sweep::csv_row({"8", "z"});
    const auto records = sweep::read_csv_records(text, "t.csv");
    REQUIRE(records.size() == 3);
    CHECK(records[0].cells.empty());
    CHECK(records[0].raw == "# meta");
    CHECK(records[1].cells == cells);
    CHECK(records[1].raw + "\n" == sweep::csv_row(cells));
    CHECK(records[1].line == 2);
    CHECK(records[2].line == 4);
    CHECK(records[2].cells == std::vector<std::string>{"8", "z"});
}

TEST_CASE("broken quoting is an error naming the line") {
    CHECK_THROWS_WITH_AS(sweep::read_csv_records("a,b\n1,\"open\n", "t.csv"),
                         doctest::Contains("t.csv:2: unterminated quoted cell"), InputError);
    CHECK_THROWS_WITH_AS(sweep::read_csv_records("\"a\"b,c\n", "t.csv"), doctest::Contains("t.csv:1: text after"),
                         InputError);
}
