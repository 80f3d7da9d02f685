// ResultsReader: the records of a results file read line by line equal read_csv_records'; merge and plot from files; budgets.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "gpusched/support/input_error.h"
#include "gpusched/support/csv_records.h"
#include "gpusched/sweep/plot_data.h"
#include "gpusched/sweep/results_file.h"
#include "gpusched/sweep/results_reader.h"

using namespace gpusched;
using namespace gpusched::sweep;

namespace {

/// A file in the test's temporary folder holding `text`.
std::string file_with(const std::string& name, const std::string& text) {
    const auto dir = std::filesystem::temp_directory_path() / "gpusched_results_reader_test";
    std::filesystem::create_directories(dir);
    const std::string path = (dir / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

std::vector<CsvRecord> read_all(const std::string& path) {
    ResultsReader reader(path);
    std::vector<CsvRecord> out;
    for (CsvRecord r; reader.next(r);) out.push_back(r);
    return out;
}

const char* const kResults =
    "# gpusched sweep results\n"
    "# study s digest 0000000000000001 points 3\n"
    "point,x,y,error\n"
    "2,3,30,\n"
    "0,1,10,\n"
    "1,2,20,\n";

}  // namespace

TEST_CASE("results reader: the same records as read_csv_records, quoted line breaks and metadata included") {
    // Lines 1-2 metadata, 3 empty, 4 a header, 5-7 one record whose quoted cell holds two line
    // breaks (one of them a CRLF), 8 a doubled quote, 9 an empty quoted cell then a literal quote.
    const std::string text = "# one\n#two\n\na,b\n\"x\ny\r\nz\",2\n\"q\"\"r\",3\n\"\",s\"t\n";
    const std::string path = file_with("records.csv", text);
    const std::vector<CsvRecord> streamed = read_all(path);
    const std::vector<CsvRecord> whole = read_csv_records("# one\n#two\n\na,b\n\"x\ny\nz\",2\n\"q\"\"r\",3\n\"\",s\"t\n", path);
    REQUIRE(streamed.size() == 6);
    REQUIRE(whole.size() == 6);
    for (std::size_t i = 0; i < whole.size(); ++i) {
        CHECK(streamed[i].cells == whole[i].cells);
        CHECK(streamed[i].raw == whole[i].raw);
        CHECK(streamed[i].line == whole[i].line);
    }
    CHECK(streamed[3].line == 5);
    CHECK(streamed[3].cells == std::vector<std::string>{"x\ny\nz", "2"});
    CHECK(streamed[4].cells == std::vector<std::string>{"q\"r", "3"});
    CHECK(streamed[5].cells == std::vector<std::string>{"", "s\"t"});
}

TEST_CASE("results reader: errors name the file and line") {
    CHECK_THROWS_WITH_AS(read_all(file_with("open.csv", "a,b\n1,\"2\n3\n")), doctest::Contains("open.csv:2: unterminated"),
                         InputError);
    CHECK_THROWS_WITH_AS(read_all(file_with("after.csv", "a,b\n\n1,\"2\"x\n")),
                         doctest::Contains("after.csv:3: text after a closing quote"), InputError);
    CHECK_THROWS_WITH_AS(read_all(file_with("nul.csv", std::string("a,b\n1,\0\n", 8))),
                         doctest::Contains("nul.csv:2: not a text results file"), InputError);
    CHECK_THROWS_WITH_AS(ResultsReader("/nonexistent/r.csv"), doctest::Contains("cannot read results file"), InputError);
}

TEST_CASE("results reader: csv_quote_open_at_end follows the reader's quoting rules") {
    CHECK(csv_quote_open_at_end("a,\"b", false));
    CHECK_FALSE(csv_quote_open_at_end("a,\"b\"", false));
    CHECK_FALSE(csv_quote_open_at_end("a,b\"c", false));     // a quote inside an unquoted cell is a character
    CHECK(csv_quote_open_at_end("x\"\"y", true));           // a doubled quote inside the open cell
    CHECK_FALSE(csv_quote_open_at_end("end\",2", true));
    CHECK_FALSE(csv_quote_open_at_end("#\"", false));        // a metadata line
    CHECK(csv_quote_open_at_end("#x", true));               // ... unless it goes on a quoted cell
}

TEST_CASE("merge and plot from files equal merge and plot from text") {
    const std::string path = file_with("results.csv", kResults);
    std::ostringstream merged;
    merge_results_files({path}, [&]() -> std::ostream& { return merged; });
    CHECK(merged.str() == merge_results({{path, kResults}}));
    CHECK(merged.str().ends_with("point,x,y,error\n0,1,10,\n1,2,20,\n2,3,30,\n"));  // in point order
    PlotRequest request;
    request.x = "x";
    request.y = "y";
    ResultsReader reader(path);
    const auto from_file = line_chart_from_results(reader, request);
    const auto from_text = line_chart_from_results(kResults, path, request);
    REQUIRE(from_file.series.size() == 1);
    CHECK(from_file.series[0].points.size() == 3);
    CHECK(from_file.series[0].points[2].y == from_text.series[0].points[2].y);
}

TEST_CASE("merge: a point twice or missing, whatever number of points the study line claims") {
    const std::string twice = std::string(kResults) + "1,2,21,\n";
    CHECK_THROWS_WITH_AS(merge_results({{"t.csv", twice}}), doctest::Contains("t.csv: point 1 appears twice"), InputError);
    // 10^18 points claimed, three rows: point 3 is the first missing one (no array of 10^18 entries).
    std::string huge = kResults;
    huge.replace(huge.find("points 3"), 8, "points 1000000000000000000");
    CHECK_THROWS_WITH_AS(merge_results({{"h.csv", huge}}), doctest::Contains("h.csv: point 3 is missing"), InputError);
}

TEST_CASE("results row budget: the rows kept stop at kMaxResultsHeldBytes, naming where") {
    // A string of up to 15 characters lives inside its object; a longer one adds its characters,
    // the terminating NUL and 16 bytes of allocation.
    CHECK(ResultsRowBudget::cost("short") == sizeof(std::string));
    CHECK(ResultsRowBudget::cost(std::string(20, 'a')) == sizeof(std::string) + 20 + 1 + 16);
    ResultsRowBudget budget;
    budget.keep(kMaxResultsHeldBytes - 1, "f.csv:1");
    budget.keep(1, "f.csv:2");  // exactly the budget
    CHECK(budget.held() == kMaxResultsHeldBytes);
    CHECK_THROWS_WITH_AS(budget.keep(1, "f.csv:3"), doctest::Contains("f.csv:3: the rows read so far take more than 128 MiB"),
                         InputError);
}
