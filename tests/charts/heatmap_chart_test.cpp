// Tests of HeatmapChart SVG output: well-formed XML, colours, missing cells, escaping, determinism, bounds.
#include <optional>
#include <stdexcept>
#include <string>

#include <doctest/doctest.h>

#include "gpusched/charts/heatmap_chart.h"
#include "charts/xml_check.h"
#include "support/text_checks.h"

using namespace gpusched::charts;
using gpusched::test::count_occurrences;
using gpusched::test::xml_problem;

namespace {
HeatmapChart sample() {
    HeatmapChart chart;
    chart.title = "makespan <n> & block";
    chart.x_label = "block";
    chart.y_label = "n";
    chart.value_label = "makespan_ns";
    chart.x_labels = {"8", "16", "32"};
    chart.y_labels = {"100", "200"};
    chart.values = {{1.0, 2.0, 3.0}, {4.0, std::nullopt, 6.0}};
    return chart;
}
}  // namespace

TEST_CASE("the colour scale runs from dark purple to yellow") {
    CHECK(heat_colour(0) == "#440154");
    CHECK(heat_colour(1) == "#fde725");
    CHECK(heat_colour(-3) == heat_colour(0));
    CHECK(heat_colour(7) == heat_colour(1));
    CHECK(heat_colour(0.5) == "#21908d");
}

TEST_CASE("a heatmap is well-formed, escaped, deterministic, with one cell per value") {
    const std::string svg = render_svg(sample());
    CHECK(xml_problem(svg).empty());
    CHECK(svg == render_svg(sample()));
    CHECK(svg.find("makespan &lt;n&gt; &amp; block") != std::string::npos);
    CHECK(svg.find("<script") == std::string::npos);
    CHECK(count_occurrences(svg, "fill=\"#440154\"") >= 1);  // the lowest value
    CHECK(count_occurrences(svg, "fill=\"#fde725\"") >= 1);  // the highest
    CHECK(count_occurrences(svg, "fill=\"#eeeeee\"") == 1);  // the missing cell
    CHECK(svg.find("200, 16: no data") != std::string::npos);
    CHECK(svg.find("100, 32: 3") != std::string::npos);
}

TEST_CASE("log colours and single values") {
    auto chart = sample();
    chart.log_scale = true;
    chart.values = {{1.0, 10.0, 100.0}, {1000.0, -1.0, 10000.0}};
    const std::string svg = render_svg(chart);
    CHECK(xml_problem(svg).empty());
    CHECK(count_occurrences(svg, "fill=\"#eeeeee\"") == 1);  // -1 has no logarithm
    CHECK(svg.find("(log)") != std::string::npos);
    chart.log_scale = false;
    chart.values = {{5.0, 5.0, 5.0}, {5.0, 5.0, 5.0}};
    CHECK(xml_problem(render_svg(chart)).empty());
}

TEST_CASE("a heatmap whose values do not match its labels is refused") {
    auto chart = sample();
    chart.values.pop_back();
    CHECK_THROWS_AS(render_svg(chart), std::invalid_argument);
    chart = sample();
    chart.values[0].push_back(1.0);
    CHECK_THROWS_AS(render_svg(chart), std::invalid_argument);
    chart = sample();
    chart.x_labels.clear();
    CHECK_THROWS_AS(render_svg(chart), std::invalid_argument);
    chart = sample();
    chart.cell_height = 1e9;
    CHECK_THROWS_AS(render_svg(chart), std::invalid_argument);
}
