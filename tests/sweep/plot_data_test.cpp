// Plot data from results: series per column values, filters, aggregation, and errors that say what to do.
#include <doctest/doctest.h>

#include "gpusched/support/input_error.h"
#include "gpusched/sweep/plot_data.h"

using namespace gpusched;

namespace {
const char* const kResults =
    "# gpusched sweep results\n# study s digest 0 points 6\n"
    "point,gpu,n,block,execution,makespan_ns,error\n"
    "0,h100,100,8,shared,10.5,\n"
    "1,h100,100,16,shared,8,\n"
    "2,h100,200,8,shared,30,\n"
    "3,h100,200,16,shared,20,\n"
    "4,a100,100,8,shared,12,\n"
    "5,a100,200,8,,,\"cannot launch, too big\"\n";
}  // namespace

TEST_CASE("curves: one line per series value, points sorted by x, error rows left out") {
    sweep::PlotRequest r;
    r.x = "n";
    r.y = "makespan_ns";
    r.series = {"gpu", "block"};
    const auto chart = sweep::line_chart_from_results(kResults, "r.csv", r);
    REQUIRE(chart.series.size() == 3);
    CHECK(chart.series[0].name == "gpu=h100, block=8");
    REQUIRE(chart.series[0].points.size() == 2);
    CHECK(chart.series[0].points[1].x == 200);
    CHECK(chart.series[0].points[1].y == 30);
    CHECK(chart.series[2].name == "gpu=a100, block=8");
    CHECK(chart.series[2].points.size() == 1);
}

TEST_CASE("several rows on one point: an error naming the differing columns, or an aggregate") {
    sweep::PlotRequest r;
    r.x = "n";
    r.y = "makespan_ns";
    r.series = {"gpu"};
    CHECK_THROWS_WITH_AS(sweep::line_chart_from_results(kResults, "r.csv", r),
                         doctest::Contains("2 rows fall on x = 100 of series 'gpu=h100'; they differ in block"),
                         InputError);
    r.aggregate = "min";
    CHECK(sweep::line_chart_from_results(kResults, "r.csv", r).series[0].points[0].y == 8);
    r.aggregate = "mean";
    CHECK(sweep::line_chart_from_results(kResults, "r.csv", r).series[0].points[0].y == doctest::Approx(9.25));
    r.aggregate = "median";
    CHECK_THROWS_WITH_AS(sweep::line_chart_from_results(kResults, "r.csv", r), "aggregate: expected none, min, mean or max, got 'median'", InputError);
    r.aggregate = "none";
    r.where = {{"block", "16"}};
    CHECK(sweep::line_chart_from_results(kResults, "r.csv", r).series.size() == 1);
}

TEST_CASE("heatmaps: numeric labels sorted, missing cells empty") {
    sweep::PlotRequest r;
    r.x = "block";
    r.y = "n";
    r.value = "makespan_ns";
    r.where = {{"gpu", "h100"}};
    const auto chart = sweep::heatmap_from_results(kResults, "r.csv", r);
    CHECK(chart.x_labels == std::vector<std::string>{"8", "16"});
    CHECK(chart.y_labels == std::vector<std::string>{"100", "200"});
    CHECK(chart.values[1][1] == 20.0);
    r.where = {{"gpu", "a100"}};
    const auto a100 = sweep::heatmap_from_results(kResults, "r.csv", r);
    CHECK(a100.y_labels == std::vector<std::string>{"100"});
}

TEST_CASE("bad plot requests name the request's field (x, y, ...) and the columns") {
    sweep::PlotRequest r;
    r.x = "size";
    r.y = "makespan_ns";
    CHECK_THROWS_WITH_AS(sweep::line_chart_from_results(kResults, "r.csv", r),
                         "x: no column 'size' in r.csv (columns: point, gpu, n, block, execution, makespan_ns, error)",
                         InputError);
    r.x = "gpu";
    CHECK_THROWS_WITH_AS(sweep::line_chart_from_results(kResults, "r.csv", r),
                         "x: column 'gpu' has the non-numeric value 'h100' (a category: use it in series or where)",
                         InputError);
    r.x = "n";
    r.where = {{"gpu", "k20"}};
    CHECK_THROWS_WITH_AS(sweep::line_chart_from_results(kResults, "r.csv", r), doctest::Contains("no rows to plot"),
                         InputError);
}

TEST_CASE("time columns are plotted in the unit a person reads, named by their quantity; curves start at zero") {
    // makespan_ns up to 2.5e7 ns = 25 ms: the axis is "makespan (ms)" and 2.5e7 ns is drawn at 25.
    const char* const results =
        "# gpusched sweep results\n# study s digest 0 points 3\n"
        "point,n,span_us,makespan_ns,waves,error\n"
        "0,100,0.5,1500000,1,\n"
        "1,200,0.75,25000000,2,\n"
        "2,300,0.9,4000,3,\n";
    sweep::PlotRequest r;
    r.x = "n";
    r.y = "makespan_ns";
    const auto chart = sweep::line_chart_from_results(results, "r.csv", r);
    CHECK(chart.y_label == "makespan (ms)");
    CHECK(chart.x_label == "n");
    CHECK(chart.y_from_zero);
    REQUIRE(chart.series.size() == 1);
    REQUIRE(chart.series[0].points.size() == 3);
    CHECK(chart.series[0].points[0].y == doctest::Approx(1.5));    // 1.5e6 ns
    CHECK(chart.series[0].points[1].y == doctest::Approx(25));     // 2.5e7 ns
    CHECK(chart.series[0].points[2].y == doctest::Approx(0.004));  // 4000 ns
    // span_us at most 0.9 us = 900 ns: nanoseconds.
    r.y = "span_us";
    const auto span = sweep::line_chart_from_results(results, "r.csv", r);
    CHECK(span.y_label == "span (ns)");
    CHECK(span.series[0].points[2].y == doctest::Approx(900));
    // Not a time: as it is.
    r.y = "waves";
    CHECK(sweep::line_chart_from_results(results, "r.csv", r).y_label == "waves");
    // Heatmap colours: the value column the same way.
    r.x = "waves";
    r.y = "n";
    r.value = "makespan_ns";
    const auto heat = sweep::heatmap_from_results(results, "r.csv", r);
    CHECK(heat.value_label == "makespan (ms)");
    CHECK(heat.values[1][1] == doctest::Approx(25));
}
