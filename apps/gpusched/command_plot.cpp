// `gpusched plot RESULTS.csv`: curves (a metric over one column, a line per series) or a heatmap, as SVG or HTML.
#include <fstream>
#include <iostream>
#include <sstream>

#include "commands.h"
#include "output_file.h"
#include "gpusched/support/input_error.h"
#include "gpusched/charts/heatmap_chart.h"
#include "gpusched/charts/line_chart.h"
#include "gpusched/charts/svg_format.h"
#include "gpusched/sweep/plot_data.h"
#include "gpusched/sweep/results_file.h"
#include "gpusched/support/text_file.h"

namespace gpusched::cli {

namespace {

struct PlotOptions {
    std::string results;
    sweep::PlotRequest request;
    std::string series;
    std::vector<std::string> where;
    bool heatmap = false;
    std::string out;
};

std::vector<std::string> split_commas(const std::string& text) {
    std::vector<std::string> out;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');)
        if (!item.empty()) out.push_back(item);
    return out;
}

/// What a line chart shows, for the note on stderr: "3 lines, 27 points: makespan (ms) over n".
std::string line_chart_contents(const charts::LineChart& chart) {
    std::size_t points = 0;
    for (const auto& line : chart.series) points += line.points.size();
    return std::to_string(chart.series.size()) + (chart.series.size() == 1 ? " line, " : " lines, ") +
           std::to_string(points) + (points == 1 ? " point: " : " points: ") + chart.y_label + " over " + chart.x_label +
           (chart.log_y ? " (log y)" : "");
}

/// What a heatmap shows: "heatmap of makespan (ms) over block x n, 3 x 4 cells, 10 with a value".
std::string heatmap_contents(const charts::HeatmapChart& chart) {
    std::size_t filled = 0;
    for (const auto& row : chart.values)
        for (const auto& v : row) filled += v ? 1 : 0;
    return "heatmap of " + chart.value_label + " over " + chart.x_label + " (columns) x " + chart.y_label + " (rows), " +
           std::to_string(chart.x_labels.size()) + " x " + std::to_string(chart.y_labels.size()) + " cells, " +
           std::to_string(filled) + " with a value" + (chart.log_scale ? " (log colours)" : "");
}

void run_plot(PlotOptions o) {
    check_not_an_input(o.out, "--out", {o.results});  // before any work: the run would end by destroying it
    sweep::ResultsReader results(o.results);  // read record by record while the chart's rows are gathered
    o.request.series = split_commas(o.series);
    for (const auto& w : o.where) {
        const auto eq = w.find('=');
        if (eq == std::string::npos || eq == 0) throw InputError("--where: expected COLUMN=VALUE, got '" + w + "'");
        o.request.where.emplace_back(w.substr(0, eq), w.substr(eq + 1));
    }
    const bool html = o.out.ends_with(".html");
    if (!html && !o.out.ends_with(".svg")) throw InputError("--out: expected a .svg or .html file, got '" + o.out + "'");
    std::string svg, what;
    if (o.heatmap) {
        if (o.request.value.empty()) throw InputError("--heatmap needs --value COLUMN (the colour)");
        const charts::HeatmapChart chart = sweep::heatmap_from_results(results, o.request);
        svg = charts::render_svg(chart);
        what = heatmap_contents(chart);
    } else {
        if (!o.request.value.empty()) throw InputError("--value is for --heatmap; curves plot --y over --x");
        const charts::LineChart chart = sweep::line_chart_from_results(results, o.request);
        svg = charts::render_svg(chart);
        what = line_chart_contents(chart);
    }
    OutputFile out(o.out, "--out", {o.results});
    std::ostream& file = out.stream();
    if (html)
        file << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" << charts::escape_xml(o.results)
             << "</title></head>\n<body>\n" << svg << "\n</body></html>\n";
    else
        file << svg;
    out.commit();
    std::cerr << "gpusched plot: wrote " << o.out << (html ? " (an HTML page holding the SVG)" : " (SVG)") << ": " << what
              << "\n";
}

}  // namespace

void add_plot_command(CLI::App& app) {
    auto o = std::make_shared<PlotOptions>();
    auto* cmd = app.add_subcommand("plot", "Plot sweep results: curves of a metric over one column, or a heatmap");
    cmd->footer("Examples (docs/sweep.md):\n"
                "  gpusched sweep examples/sweep-apsp.yaml -j 2 --out apsp.csv   # the README's study, plotted below\n"
                "  gpusched plot apsp.csv --x sm_count --y makespan_ns --series n --where block=16 \\\n"
                "      --where max_blocks_per_sm=32 --where policy=most-room --out sms.svg\n"
                "  gpusched plot apsp.csv --x n --y makespan_ns --series gpu,block --where sm_count=132 \\\n"
                "      --where max_blocks_per_sm=32 --where policy=most-room --out curves.svg\n"
                "  gpusched plot apsp.csv --heatmap --x block --y n --value makespan_ns --where gpu=h100 \\\n"
                "      --where sm_count=132 --where max_blocks_per_sm=32 --where policy=most-room --out heat.html\n"
                "(apsp.csv: one row per point of the study; docs/sweep.md lists its columns)");
    cmd->add_option("results", o->results, "Results CSV of gpusched sweep or merge")->required();
    cmd->add_option("--x", o->request.x, "Column on the x axis")->required();
    cmd->add_option("--y", o->request.y, "Curves: the metric column; heatmap: the row column")->required();
    cmd->add_option("--series", o->series, "Curves: one line per value of these columns (comma-separated)");
    cmd->add_flag("--heatmap", o->heatmap, "Draw a heatmap of --value over --x (columns) and --y (rows)");
    cmd->add_option("--value", o->request.value, "Heatmap: the colour column");
    cmd->add_option("--where", o->where, "Keep rows with COLUMN=VALUE (repeatable)");
    cmd->add_option("--aggregate", o->request.aggregate,
                    "Rows on one point: none (an error naming the columns that differ), min, mean or max")
        ->capture_default_str();
    cmd->add_flag("--log", o->request.log, "Log scale (curves: y axis; heatmap: colours)");
    cmd->add_option("--title", o->request.title, "Chart title");
    cmd->add_option("--out", o->out, "Output .svg, or .html (the SVG in a page)")->required();
    o->request.field_names = {{"x", "--x"},         {"y", "--y"},         {"value", "--value"},
                              {"series", "--series"}, {"where", "--where"}, {"aggregate", "--aggregate"}};
    cmd->callback([o] { run_plot(*o); });
}

}  // namespace gpusched::cli
