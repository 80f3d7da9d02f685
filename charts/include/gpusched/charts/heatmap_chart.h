// HeatmapChart: a value over two categorical axes drawn as coloured cells in a self-contained SVG.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gpusched::charts {

/// What to draw: rows (y, drawn top to bottom in the given order) by columns (x), each cell a
/// value or empty (drawn light grey, "no data"). Colours follow a perceptually uniform
/// sequential scale (viridis anchors, dark = low) over the finite values, linear or log10;
/// a colour bar shows the scale. Cells show their value when the text fits.
struct HeatmapChart {
    std::string title;
    std::string x_label;
    std::string y_label;
    std::string value_label;                              ///< colour bar caption
    std::vector<std::string> x_labels;                    ///< column names
    std::vector<std::string> y_labels;                    ///< row names
    std::vector<std::vector<std::optional<double>>> values;  ///< [row][column]
    bool log_scale = false;                               ///< log10 colours (values <= 0 count as no data)
    double cell_width = 0;                                ///< px; 0: chosen from the labels (at least 28)
    double cell_height = 22;                              ///< px
};

/// "#rrggbb" at t in [0, 1] (clamped) on the sequential scale; t = 0 is dark purple, 1 yellow.
std::string heat_colour(double t);

/// The chart as one SVG document (UTF-8, no scripts, no external resources), deterministic.
/// Throws std::invalid_argument when the value grid does not match the labels, there is no
/// row or column, or the document would be absurd (over 2000 rows or columns).
std::string render_svg(const HeatmapChart& chart);

}  // namespace gpusched::charts
