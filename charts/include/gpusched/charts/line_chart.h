// LineChart: named (x, y) series drawn as lines in a self-contained SVG, with legend, ticks and markers.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace gpusched::charts {

struct ChartPoint {
    double x = 0;
    double y = 0;
};

/// One named line. Points are joined in the given order; a non-finite point (or, on a log
/// axis, one with y <= 0) is left out and breaks the line there.
struct LineSeries {
    std::string name;                      ///< legend entry; empty: not in the legend
    std::vector<ChartPoint> points;
    bool markers = false;                  ///< a dot at each point, when they are at least 4 px apart on average
    std::string dash;                      ///< SVG stroke-dasharray ("6 3"); empty: solid
    double line_width = 1.5;
    std::optional<std::size_t> colour;     ///< palette index (palette.h); default: the series' position
    bool steps = false;                    ///< a value per x (a count per SM): drawn as a staircase, each value
                                           ///< level from halfway to the previous x to halfway to the next
};

/// A labelled vertical line across the plot, e.g. where a curve jumps. Labels sit above the
/// plot, on as many rows as they need not to overlap (at most 8; after that they may).
struct VerticalMarker {
    double x = 0;
    std::string label;
};

/// What to draw. Axes cover the data (and 0 with y_from_zero), widened to "nice" ticks
/// (axis_ticks.h); markers outside the x axis are not drawn.
///
/// Series with more than four points per pixel column are thinned to the first, lowest,
/// highest and last point of each column (what the line would draw anyway), so the file
/// size stays proportional to the width, not to the number of points.
struct LineChart {
    std::string title;
    std::string x_label;
    std::string y_label;
    double width = 760;
    double height = 420;
    bool log_y = false;
    bool y_from_zero = false;              ///< linear y axis only
    std::vector<LineSeries> series;
    std::vector<VerticalMarker> markers;
};

/// The chart as one SVG document (UTF-8, no scripts, no external resources). Deterministic:
/// equal charts give byte-identical documents. Throws std::invalid_argument for a size that
/// leaves no room to plot or is absurd (width outside [200, 100000], height outside [150, 100000]).
std::string render_svg(const LineChart& chart);

}  // namespace gpusched::charts
