// GanttChart: rows (e.g. SMs) of time bars in a self-contained SVG that stays small for many bars.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace gpusched::charts {

/// One bar: [start_us, end_us] on its row, a palette colour (palette.h) and a tooltip label.
/// Bars with a non-finite time or end < start are skipped; start == end is an instant.
struct GanttBar {
    double start_us = 0;
    double end_us = 0;
    std::size_t colour = 0;
    std::string label;
    bool marked = false;  ///< underlined in black over its extent (e.g. a partial block whose warps are not all active)
};

/// A vertical dashed line across every row at `at_us`, labelled above the plot (e.g. a wave's start).
struct GanttMarker {
    double at_us = 0;
    std::string label;
};

struct GanttRow {
    std::string label;                     ///< left of the row, e.g. "SM 3"
    std::vector<GanttBar> bars;
};

/// What to draw. The x axis runs from min(0, earliest start) to the latest end, in
/// microseconds, with nice ticks (axis_ticks.h).
///
/// Lanes: bars of one row that overlap in time (blocks resident on one SM at once) are drawn
/// in lanes, one above the other, each lane row_height / lanes high. Taken by start (ties: row
/// order), a bar goes to the lowest lane free at its start, so a row has as many lanes as it
/// has bars at once. Lanes are at least 3 px high: a row with more than floor(row_height / 3)
/// bars at once is drawn in one lane (as a row whose bars never overlap), and the caption says
/// how many rows are.
///
///     SM 0 |[== block 0 ==][== block 2 ==]    two blocks resident at once:
///          |[==== block 1 ====]               two lanes of 7 px in a 14 px row
///
/// Size rule (bounded output for any number of bars): each lane is drawn on a grid of whole
/// pixel columns, and each column shows one bar: the one covering most of it (ties: the later
/// bar in the row's order, which would be drawn on top). Every bar that lies on the axis
/// therefore shows as at least one column unless other bars cover its columns more. A bar at
/// least `detail_px` wide is a <rect> of its own with a tooltip (and its label inside when it
/// fits); narrower bars are merged: adjacent columns of one colour become one segment of a
/// per-lane, per-colour <path>. So a lane has at most one shape per pixel column: at most
/// rows x lanes x plot width shapes in all, about 10 bytes per merged segment and about 100 bytes
/// plus its label per detailed bar. The caption ends with a line giving the number of bars
/// and how many of them were merged. Rows thinner than 10 px are labelled every k-th row.
/// Checked in tests/charts/gantt_chart_test.cpp: 10,000 bars on 16 rows at the default width
/// stay under 100 KB whatever their colours (about 65 KB with a random colour per bar).
struct GanttChart {
    std::string title;
    std::string caption;                   ///< below the chart; '\n' starts a new line
    std::string x_label = "time (us)";
    double width = 960;
    double row_height = 14;
    double detail_px = 3;
    std::vector<GanttRow> rows;
    std::vector<std::string> colour_names; ///< legend: the name of colour 0, 1, ...; empty: no legend
    std::vector<GanttMarker> markers;      ///< drawn over the bars; none: the chart is as without them
};

/// The chart as one SVG document (UTF-8, no scripts, no external resources). Deterministic:
/// equal charts give byte-identical documents. Throws std::invalid_argument for width outside
/// [300, 100000], row_height outside [2, 100], detail_px outside [1, 1000] or more than
/// 100000 rows.
std::string render_svg(const GanttChart& chart);

}  // namespace gpusched::charts
