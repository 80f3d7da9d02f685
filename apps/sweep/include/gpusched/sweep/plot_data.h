// Plot data: sweep results (CSV) turned into line charts (metric over one axis) and heatmaps.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "gpusched/charts/heatmap_chart.h"
#include "gpusched/charts/line_chart.h"
#include "gpusched/support/key_error.h"
#include "gpusched/sweep/results_reader.h"

namespace gpusched::sweep {

/// What to plot from a results file.
struct PlotRequest {
    std::string x;                 ///< column on the x axis
    std::string y;                 ///< curves: the metric (numeric); heatmaps: the row column
    std::string value;             ///< heatmaps: the colour column (numeric)
    std::vector<std::string> series;  ///< curves: one line per distinct combination of these columns
    std::vector<std::pair<std::string, std::string>> where;  ///< keep rows with COLUMN == VALUE
    std::string aggregate = "none";  ///< rows sharing a point of the plot: none (an error), min, mean, max
    bool log = false;              ///< log y axis (curves) or log colours (heatmaps)
    std::string title;
    /// How messages name the fields above (x, y, value, series, where, aggregate): the command
    /// line maps them to its flags; unlisted fields go by their own names.
    KeyNames field_names;
};

/// A line chart of y over x, one line per series value. Rows with an error, or with an empty
/// x or y cell, are left out. InputError naming the column and the request's field (as
/// field_names names it) for an unknown column, a non-numeric cell, no rows left, or several
/// rows on one point with aggregate "none" (the message names the columns that differ among
/// them, to add to series or where).
charts::LineChart line_chart_from_results(const std::string& csv, const std::string& source, const PlotRequest& request);

/// A heatmap of `value` over x (columns) and y (rows); labels sorted numerically when all
/// numeric, else in order of first appearance. Same checks as line_chart_from_results.
charts::HeatmapChart heatmap_from_results(const std::string& csv, const std::string& source, const PlotRequest& request);

/// The two charts from a results file read record by record: the rows kept (after the filters) stay
/// within kMaxResultsHeldBytes, an InputError naming the file and line beyond.
charts::LineChart line_chart_from_results(ResultsReader& reader, const PlotRequest& request);
charts::HeatmapChart heatmap_from_results(ResultsReader& reader, const PlotRequest& request);

}  // namespace gpusched::sweep
