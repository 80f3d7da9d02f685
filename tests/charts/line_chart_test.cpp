// Tests of LineChart SVG output: well-formed XML, escaping, determinism, markers, size bounds.
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "gpusched/charts/line_chart.h"
#include "charts/xml_check.h"
#include "support/text_checks.h"

using namespace gpusched::charts;
using gpusched::test::xml_problem;

namespace {

using gpusched::test::count_occurrences;

LineChart sample_chart() {
    LineChart chart;
    chart.title = "runtime <&> n";
    chart.x_label = "n";
    chart.y_label = "time (us)";
    LineSeries simulated{"simulated", {}, true, "", 2, std::nullopt};
    LineSeries model{"Buckets", {}, false, "6 3", 1.5, std::nullopt};
    for (int n = 50; n <= 100; ++n) {
        simulated.points.push_back({static_cast<double>(n), 10.0 + n / 10 * 3.0});
        model.points.push_back({static_cast<double>(n), 9.5 + n / 8 * 2.5});
    }
    chart.series = {simulated, model};
    chart.markers = {{65.5, "n=66: launches 6->7"}, {80.5, "n=81: blocks 100->121"}, {96.5, "n=97: blocks 36->49"}};
    return chart;
}

}  // namespace

TEST_CASE("the xml checker itself") {
    CHECK(xml_problem("<a><b x=\"1\"/></a>").empty());
    CHECK_FALSE(xml_problem("<a><b></a>").empty());
    CHECK_FALSE(xml_problem("<a x=1/>").empty());
    CHECK_FALSE(xml_problem("<a>&nbsp;</a>").empty());
    CHECK_FALSE(xml_problem("<a>x</a><b/>").empty());
    CHECK_FALSE(xml_problem("<a x=\"<\"/>").empty());
    CHECK_FALSE(xml_problem("<a>").empty());
}

TEST_CASE("a line chart is one well-formed, self-contained SVG document") {
    const std::string svg = render_svg(sample_chart());
    CHECK(xml_problem(svg) == "");
    CHECK(svg.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) == 0);
    CHECK(svg.find("width=\"760\" height=\"420\"") != std::string::npos);
    CHECK(svg.find("<script") == std::string::npos);
    CHECK(svg.find("href") == std::string::npos);
    CHECK(svg.find("@font-face") == std::string::npos);
    CHECK(count_occurrences(svg, "<polyline") == 2);
    CHECK(count_occurrences(svg, "<circle") == 51 + 1);  // the simulated points and its legend sample
    CHECK(svg.find(">simulated</text>") != std::string::npos);
    CHECK(svg.find(">Buckets</text>") != std::string::npos);
}

TEST_CASE("line chart text is escaped") {
    const std::string svg = render_svg(sample_chart());
    CHECK(svg.find("runtime &lt;&amp;&gt; n") != std::string::npos);
    CHECK(svg.find("launches 6-&gt;7") != std::string::npos);
    CHECK(svg.find("<&>") == std::string::npos);
    LineChart nasty = sample_chart();
    nasty.series[0].name = "\"quoted\" 'name' \x01 \xff";
    nasty.y_label = "</svg>";
    CHECK(xml_problem(render_svg(nasty)) == "");
}

TEST_CASE("line chart output is deterministic") {
    CHECK(render_svg(sample_chart()) == render_svg(sample_chart()));
    LineChart other = sample_chart();
    other.series[0].points[3].y += 1;
    CHECK(render_svg(other) != render_svg(sample_chart()));
}

TEST_CASE("line chart axes use nice ticks over the data") {
    const std::string svg = render_svg(sample_chart());
    for (const char* tick : {">50</text>", ">60</text>", ">100</text>"}) CHECK(svg.find(tick) != std::string::npos);
    LineChart zero = sample_chart();
    zero.y_from_zero = true;
    CHECK(render_svg(zero).find(">0</text>") != std::string::npos);
}

TEST_CASE("close marker labels go on separate rows") {
    LineChart chart = sample_chart();
    chart.markers = {{65.5, "n=66: launches 6->7"}, {66.5, "n=67: something else"}};
    const std::string svg = render_svg(chart);
    CHECK(xml_problem(svg) == "");
    CHECK(count_occurrences(svg, "stroke-dasharray=\"4 3\"") == 2);
    // Two rows of labels: the two labels have different baselines.
    const auto first = svg.find("launches 6-&gt;7");
    const auto second = svg.find("something else");
    REQUIRE(first != std::string::npos);
    REQUIRE(second != std::string::npos);
    const auto y_of = [&](std::size_t at) {
        const auto tag = svg.rfind("<text", at);
        const auto y = svg.find(" y=\"", tag) + 4;
        return svg.substr(y, svg.find('"', y) - y);
    };
    CHECK(y_of(first) != y_of(second));
    // A marker outside the x axis is not drawn.
    chart.markers = {{1000, "far away"}};
    CHECK(render_svg(chart).find("far away") == std::string::npos);
}

TEST_CASE("log y axis, gaps and empty charts") {
    LineChart chart = sample_chart();
    chart.log_y = true;
    chart.series[1].points[10].y = 0;           // left out on a log axis: splits the line
    chart.series[1].points[20].y = std::nan("");
    const std::string svg = render_svg(chart);
    CHECK(xml_problem(svg) == "");
    CHECK(count_occurrences(svg, "<polyline") == 4);
    CHECK(svg.find(">10</text>") != std::string::npos);

    LineChart empty;
    empty.title = "nothing";
    const std::string none = render_svg(empty);
    CHECK(xml_problem(none) == "");
    CHECK(none.find("no data") != std::string::npos);
    empty.log_y = true;
    CHECK(xml_problem(render_svg(empty)) == "");
}

TEST_CASE("a 100,000-point series is thinned to the plot's pixel columns") {
    LineChart chart;
    chart.title = "dense";
    LineSeries s{"noise", {}, true, "", 1, std::nullopt};
    for (int i = 0; i < 100000; ++i) s.points.push_back({static_cast<double>(i), std::sin(i * 0.37) * 100});
    chart.series = {s};
    const std::string svg = render_svg(chart);
    CHECK(xml_problem(svg) == "");
    CHECK(svg.size() < 80000);
    CHECK(count_occurrences(svg, "<circle") == 1);  // no dots at this density, only the legend sample
}

TEST_CASE("line chart size limits") {
    LineChart chart = sample_chart();
    chart.width = 100;
    CHECK_THROWS_AS(render_svg(chart), std::invalid_argument);
    chart.width = std::nan("");
    CHECK_THROWS_AS(render_svg(chart), std::invalid_argument);
    chart.width = 1200;
    chart.height = 800;
    CHECK(render_svg(chart).find("width=\"1200\" height=\"800\"") != std::string::npos);
}

TEST_CASE("a series of steps is drawn as a staircase: a level per point, vertical risers halfway between") {
    LineChart chart;
    chart.title = "blocks per SM";
    chart.y_from_zero = true;
    LineSeries s{"blocks", {{0, 2}, {1, 3}, {2, 1}}, true, "", 1, std::nullopt};
    s.steps = true;
    chart.series = {s};
    const std::string svg = render_svg(chart);
    CHECK(xml_problem(svg) == "");
    // 3 points: start, (riser at x=0.5: old level, new level), (riser at 1.5: two), end = 6 vertices.
    const auto at = svg.find("<polyline");
    REQUIRE(at != std::string::npos);
    const auto open = svg.find("points=\"", at) + 8;
    const std::string points = svg.substr(open, svg.find('"', open) - open);
    CHECK(count_occurrences(points, ",") == 6);
    // Each riser keeps its x: vertices 2 and 3 share one x, vertices 4 and 5 another.
    std::vector<std::string> xs;
    for (std::size_t i = 0; i < points.size();) {
        const auto comma = points.find(',', i);
        xs.push_back(points.substr(i, comma - i));
        const auto space = points.find(' ', comma);
        i = space == std::string::npos ? points.size() : space + 1;
    }
    REQUIRE(xs.size() == 6);
    CHECK(xs[1] == xs[2]);
    CHECK(xs[3] == xs[4]);
    CHECK(xs[0] != xs[1]);
    CHECK(count_occurrences(svg, "<circle") == 4);  // the 3 points' dots stay on the points, and the legend's

    s.steps = false;
    chart.series = {s};
    const std::string line = render_svg(chart);
    const auto line_at = line.find("points=\"", line.find("<polyline")) + 8;
    CHECK(count_occurrences(line.substr(line_at, line.find('"', line_at) - line_at), ",") == 3);
}
