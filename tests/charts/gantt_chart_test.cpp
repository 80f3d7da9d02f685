// Tests of GanttChart SVG output: well-formed XML, escaping, determinism, bounded size for many bars.
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include <doctest/doctest.h>

#include "gpusched/charts/gantt_chart.h"
#include "charts/xml_check.h"
#include "support/text_checks.h"

using namespace gpusched::charts;
using gpusched::test::xml_problem;

namespace {

using gpusched::test::count_occurrences;

/// `bars` back-to-back bars of pseudo-random length spread over `rows` rows; colour: the
/// launch (a third of the bars each) or, with `mixed`, pseudo-random per bar (the worst case).
GanttChart many_bars(int bars, int rows, bool mixed = false) {
    GanttChart chart;
    chart.title = "10,000 blocks";
    chart.caption = "each bar is one block\ncolour: launch";
    chart.colour_names = {"launch 0", "launch 1", "launch 2"};
    chart.rows.resize(static_cast<std::size_t>(rows));
    std::vector<double> end(static_cast<std::size_t>(rows), 0.0);
    std::uint64_t state = 12345;
    for (int i = 0; i < bars; ++i) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        const auto r = static_cast<std::size_t>(i % rows);
        const double length = 0.5 + static_cast<double>(state >> 40) / static_cast<double>(1ULL << 24) * 4.0;
        chart.rows[r].label = "SM " + std::to_string(r);
        const auto colour = static_cast<std::size_t>(mixed ? (state >> 20) % 8 : static_cast<std::uint64_t>(i) * 3 / bars);
        chart.rows[r].bars.push_back({end[r], end[r] + length, colour,
                                      "block " + std::to_string(i)});
        end[r] += length;
    }
    return chart;
}

}  // namespace

TEST_CASE("a small Gantt chart: one rect per bar, tooltips, labels inside wide bars") {
    GanttChart chart;
    chart.title = "SMs <&>";
    chart.caption = "two launches";
    chart.rows = {{"SM 0", {{0, 50, 0, "b0"}, {50, 100, 1, "b1"}}}, {"SM 1", {{0, 100, 0, "b2 <wide>"}}}};
    const std::string svg = render_svg(chart);
    CHECK(xml_problem(svg) == "");
    CHECK(count_occurrences(svg, "<title>") == 4);  // the document and three bars
    CHECK(svg.find("<title>b0: 0 - 50 us</title>") != std::string::npos);
    CHECK(svg.find(">b2 &lt;wide&gt;</text>") != std::string::npos);
    CHECK(svg.find("SMs &lt;&amp;&gt;") != std::string::npos);
    CHECK(svg.find("3 bars on 2 rows") != std::string::npos);
    CHECK(svg.find("merged") == std::string::npos);
    CHECK(svg.find("<path") == std::string::npos);
    CHECK(svg.find(">100</text>") != std::string::npos);
}

TEST_CASE("Gantt output is deterministic") {
    CHECK(render_svg(many_bars(500, 8)) == render_svg(many_bars(500, 8)));
}

TEST_CASE("10,000 bars on 16 rows stay under 100 KB (gantt_chart.h: one shape per pixel column and row)") {
    const std::string svg = render_svg(many_bars(10000, 16));
    CHECK(xml_problem(svg) == "");
    MESSAGE("10,000-bar Gantt, colour by launch: " << svg.size() << " bytes");
    CHECK(svg.size() < 100000);
    const std::string mixed = render_svg(many_bars(10000, 16, true));
    CHECK(xml_problem(mixed) == "");
    MESSAGE("10,000-bar Gantt, a random colour per bar: " << mixed.size() << " bytes");
    CHECK(mixed.size() < 100000);
    CHECK(svg.find("10000 bars on 16 rows; ") != std::string::npos);
    CHECK(svg.find("merged per pixel column") != std::string::npos);
    // Every row shows bars of all three colours.
    CHECK(count_occurrences(svg, "<path") >= 16);
}

TEST_CASE("Gantt bounds hold for overlapping bars too") {
    GanttChart chart;
    chart.title = "overlap";
    chart.rows.resize(1);
    for (int i = 0; i < 10000; ++i)
        chart.rows[0].bars.push_back({static_cast<double>(i % 100), 100.0 + i % 7, static_cast<std::size_t>(i % 5), "x"});
    const std::string svg = render_svg(chart);
    CHECK(xml_problem(svg) == "");
    CHECK(svg.size() < 100000);
}

TEST_CASE("Gantt lanes: bars resident at once are drawn one above the other, at most row_height / 3 lanes") {
    // b0 [0, 50] and b1 [10, 60] overlap: two lanes of 14 / 2 = 7 px; b2 starts at 50 when lane 0
    // is free again (b0 ended), so it joins lane 0. The plot's top is y = 36 and a bar is padded
    // by min(1, lane / 4) = 1 px: lane 0's bars at y = 37, lane 1's at 36 + 7 + 1 = 44, 5 px high.
    GanttChart chart;
    chart.title = "two blocks per SM";
    chart.rows = {{"SM 0", {{0, 50, 0, "b0"}, {10, 60, 1, "b1"}, {50, 100, 0, "b2"}}}};
    const std::string svg = render_svg(chart);
    CHECK(xml_problem(svg) == "");
    const auto rect_of = [&](const std::string& label) {
        const std::size_t title = svg.find("<title>" + label + ":");
        REQUIRE(title != std::string::npos);
        const std::size_t open = svg.rfind("<rect", title);
        return svg.substr(open, title - open);
    };
    CHECK(rect_of("b0").find("y=\"37\"") != std::string::npos);
    CHECK(rect_of("b1").find("y=\"44\"") != std::string::npos);
    CHECK(rect_of("b2").find("y=\"37\"") != std::string::npos);
    CHECK(rect_of("b1").find("height=\"5\"") != std::string::npos);
    CHECK(svg.find("shared lanes") == std::string::npos);

    // Back-to-back bars never overlap: one lane, the whole row (y = 37, 14 - 2 = 12 px high).
    chart.rows = {{"SM 0", {{0, 50, 0, "b0"}, {50, 100, 1, "b1"}}}};
    const std::string single = render_svg(chart);
    const std::size_t t = single.find("<title>b1:");
    const std::string r = single.substr(single.rfind("<rect", t), t - single.rfind("<rect", t));
    CHECK(r.find("y=\"37\"") != std::string::npos);
    CHECK(r.find("height=\"12\"") != std::string::npos);

    // Four bars at once in a 14 px row: floor(14 / 3) = 4 lanes of 3.5 px (y = 36 + 3 x 3.5 +
    // 0.875 for the last). Five at once: one lane, the whole row, and the caption says so.
    chart.rows = {{"SM 0", {}}};
    for (int i = 0; i < 4; ++i) chart.rows[0].bars.push_back({static_cast<double>(i), 100.0, 0, "c" + std::to_string(i)});
    const std::string four = render_svg(chart);
    CHECK(four.find("shared") == std::string::npos);
    CHECK(four.find("y=\"47.38\"") != std::string::npos);
    chart.rows[0].bars.push_back({4.0, 100.0, 0, "c4"});
    const std::string five = render_svg(chart);
    CHECK(five.find("1 row has more than 4 bars at once, drawn in one lane") != std::string::npos);
    CHECK(five.find("y=\"47.38\"") == std::string::npos);
}

TEST_CASE("Gantt edge cases: instants, bad bars, empty charts, thin rows, bad sizes") {
    GanttChart chart;
    chart.title = "edges";
    chart.rows = {{"r", {{5, 5, 2, "instant"}, {std::nan(""), 1, 0, "nan"}, {3, 1, 0, "backwards"}}}};
    std::string svg = render_svg(chart);
    CHECK(xml_problem(svg) == "");
    CHECK(svg.find("1 bars on 1 rows") != std::string::npos);
    CHECK(svg.find("<path") != std::string::npos);  // the instant shows as one pixel column

    GanttChart empty;
    CHECK(xml_problem(render_svg(empty)) == "");

    GanttChart thin = many_bars(200, 40);
    thin.row_height = 4;
    svg = render_svg(thin);
    CHECK(xml_problem(svg) == "");
    CHECK(svg.find(">SM 0</text>") != std::string::npos);
    CHECK(svg.find(">SM 1</text>") == std::string::npos);
    CHECK(svg.find(">SM 3</text>") != std::string::npos);

    GanttChart bad;
    bad.width = 10;
    CHECK_THROWS_AS(render_svg(bad), std::invalid_argument);
    bad.width = 960;
    bad.row_height = 0;
    CHECK_THROWS_AS(render_svg(bad), std::invalid_argument);
    bad.row_height = 14;
    bad.detail_px = 0;
    CHECK_THROWS_AS(render_svg(bad), std::invalid_argument);
}

TEST_CASE("Gantt markers and marked bars: dashed lines with labels, underlines; none without them") {
    GanttChart chart;
    chart.title = "waves";
    chart.rows = {{"SM 0", {{0, 50, 0, "b0"}, {50, 100, 1, "b1 partial", true}}}};
    const std::string plain = [&] {
        GanttChart unmarked = chart;
        unmarked.rows[0].bars[1].marked = false;
        return render_svg(unmarked);
    }();
    CHECK(plain.find("#000000") == std::string::npos);  // no underline, no marker: as before these fields
    CHECK(plain.find("4 3") == std::string::npos);
    chart.markers = {{0, "w1"}, {50, "w2"}, {1000, "off the axis"}};
    const std::string svg = render_svg(chart);
    CHECK(xml_problem(svg) == "");
    CHECK(count_occurrences(svg, "stroke-dasharray=\"4 3\"") == 2);  // the marker past the axis is not drawn
    CHECK(svg.find(">w2</text>") != std::string::npos);
    CHECK(svg.find("off the axis") == std::string::npos);
    CHECK(count_occurrences(svg, "stroke=\"#000000\"") == 1);  // one underline path: the marked bar
}
