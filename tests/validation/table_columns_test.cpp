// TableColumns: one declaration of a table's columns gives the text table, the JSON and the HTML table, and they agree.
#include <doctest/doctest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "gpusched/validation/table_columns.h"

using namespace gpusched::validation;

namespace {

struct Run {
    std::string name;
    int blocks = 0;
    double error_percent = 0;
    int measured_waves = 0;
    int simulated_waves = 0;
    bool has_timeline = false;
    int misplaced = 0;
};

const TableColumns<Run>& run_columns() {
    static const TableColumns<Run> columns{
        text_column<Run>({"case", "case", "case"}, &Run::name),
        integer_column<Run>({"blocks", "blocks", "blocks"}, &Run::blocks),
        decimal_column<Run>({"error_%", "error %", "error_percent"}, &Run::error_percent, 2)
            .red_when([](const Run& r) { return std::abs(r.error_percent) > 2.0; }),
        shown_column<Run>({"waves", "waves measured / simulated", ""},
                          [](const Run& r) { return std::to_string(r.measured_waves) + "/" + std::to_string(r.simulated_waves); })
            .in_html_as([](const Run& r) { return std::to_string(r.measured_waves) + " / " + std::to_string(r.simulated_waves); }),
        json_column<Run>("measured_waves", &Run::measured_waves),
        json_column<Run>("simulated_waves", &Run::simulated_waves),
        integer_column<Run>({"misplaced", "blocks on <another> SM", "misplaced_blocks"}, &Run::misplaced)
            .present_when([](const Run& r) { return r.has_timeline; }),
    };
    return columns;
}

const std::vector<Run> kRuns{{"a", 132, 0.5, 1, 1, true, 3}, {"long-name", 7, -12.345, 2, 3, false, 0}};

}  // namespace

TEST_CASE("table columns: the text table takes the columns with a text heading, labels left, numbers right") {
    std::ostringstream out;
    run_columns().print_text(out, kRuns);
    // Widths: case 9 (long-name), blocks 6, error_% 7, waves 5, misplaced 9; two spaces between columns. The
    // second error cell is -12.345 to 2 decimals as charts::fixed writes it (the double just below or above).
    const std::string error = fixed_digits(-12.345, 2);
    CHECK(out.str() == "case       blocks  error_%  waves  misplaced\n"
                       "a             132     0.50    1/1          3\n"
                       "long-name       7  " + std::string(7 - error.size(), ' ') + error + "    2/3          -\n");
}

TEST_CASE("table columns: each row's JSON has the columns with a key, in order, full precision, absent values left out") {
    const auto j = run_columns().json_array(kRuns);
    REQUIRE(j.size() == 2);
    // Row 1: every key; the error is the double itself, not its 2-decimal text.
    CHECK(j[0].dump() == R"({"case":"a","blocks":132,"error_percent":0.5,"measured_waves":1,"simulated_waves":1,"misplaced_blocks":3})");
    // Row 2: no timeline, so no misplaced_blocks (the text shows "-").
    CHECK(j[1].dump() == R"({"case":"long-name","blocks":7,"error_percent":-12.345,"measured_waves":2,"simulated_waves":3})");
    CHECK(run_columns().json_array(std::vector<Run>{}).dump() == "[]");
}

TEST_CASE("table columns: the HTML table has the HTML headings (escaped), the HTML cells and the red cells") {
    const std::string html = run_columns().html(kRuns);
    const std::string error = fixed_digits(-12.345, 2);
    CHECK(html == "<table>\n"
                  "<tr><th>case</th><th>blocks</th><th>error %</th><th>waves measured / simulated</th>"
                  "<th>blocks on &lt;another&gt; SM</th></tr>\n"
                  "<tr><td>a</td><td>132</td><td>0.50</td><td>1 / 1</td><td>3</td></tr>\n"
                  "<tr><td>long-name</td><td>7</td><td class=\"bad\">" + error + "</td><td>2 / 3</td><td>-</td></tr>\n"
                  "</table>\n");
}

TEST_CASE("table columns: the three outputs agree on every value of one declaration") {
    std::ostringstream text;
    run_columns().print_text(text, kRuns);
    const std::string html = run_columns().html(kRuns);
    const auto json = run_columns().json_array(kRuns);
    for (std::size_t i = 0; i < kRuns.size(); ++i) {
        const Run& r = kRuns[i];
        CAPTURE(r.name);
        // The same name and block count in all three; the error's text in text and HTML is the JSON number to 2 decimals.
        CHECK(text.str().find(r.name) != std::string::npos);
        CHECK(html.find("<td>" + r.name + "</td>") != std::string::npos);
        CHECK(json[i]["case"] == r.name);
        CHECK(json[i]["blocks"] == r.blocks);
        const std::string error = fixed_digits(json[i]["error_percent"].get<double>(), 2);
        CHECK(text.str().find(error) != std::string::npos);
        CHECK(html.find(error + "</td>") != std::string::npos);
    }
}

TEST_CASE("table columns: pointers to rows print as the rows do; a declaration can print two text tables") {
    const std::vector<const Run*> pointers{&kRuns[0], &kRuns[1]};
    std::ostringstream by_value, by_pointer;
    run_columns().print_text(by_value, kRuns);
    run_columns().print_text(by_pointer, pointers);
    CHECK(by_pointer.str() == by_value.str());
    const TableColumns<Run> two{text_column<Run>({"case", "", ""}, &Run::name),
                                integer_column<Run>({"blocks", "", ""}, &Run::blocks).in_text_table(1)};
    std::ostringstream first, second;
    two.print_text(first, kRuns, 0);
    two.print_text(second, kRuns, 1);
    CHECK(first.str() == "case\na\nlong-name\n");
    CHECK(second.str() == "blocks\n   132\n     7\n");
}
