// LineChart rendering: layout, nice axes, thinned polylines, legend and labelled vertical markers.
#include "gpusched/charts/line_chart.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "gpusched/charts/axis_ticks.h"
#include "chart_style.h"
#include "gpusched/charts/palette.h"
#include "gpusched/charts/svg_canvas.h"
#include "gpusched/charts/svg_format.h"

namespace gpusched::charts {

namespace {

using namespace style;  // NOLINT(google-build-using-namespace): the shared chart constants

constexpr double kLabelSize = 12;
constexpr double kMarkerLabelSize = 10;
constexpr double kMarkerRowHeight = 13;
constexpr int kMaxMarkerRows = 8;
constexpr double kLegendRowHeight = 18;
constexpr const char* kMarkerColour = "#777777";

using Pixel = std::pair<double, double>;

bool usable(const ChartPoint& p, bool log_y) {
    return std::isfinite(p.x) && std::isfinite(p.y) && (!log_y || p.y > 0);
}

/// Maps data to pixels inside the plot rectangle.
struct Frame {
    double left = 0, top = 0, right = 0, bottom = 0;
    AxisTicks x, y;
    bool log_y = false;

    [[nodiscard]] double px(double v) const { return left + (v - x.lo) / (x.hi - x.lo) * (right - left); }
    [[nodiscard]] double py(double v) const {
        const double t = log_y ? (std::log10(v) - std::log10(y.lo)) / (std::log10(y.hi) - std::log10(y.lo))
                               : (v - y.lo) / (y.hi - y.lo);
        return bottom - t * (bottom - top);
    }
};

/// Keeps the first, lowest, highest and last point of each run of points in one pixel column.
std::vector<Pixel> thin(const std::vector<Pixel>& line) {
    std::vector<Pixel> out;
    for (std::size_t i = 0; i < line.size();) {
        std::size_t j = i;
        const double column = std::floor(line[i].first);
        std::size_t low = i, high = i;
        while (j < line.size() && std::floor(line[j].first) == column) {
            if (line[j].second < line[low].second) low = j;
            if (line[j].second > line[high].second) high = j;
            ++j;
        }
        std::vector<std::size_t> keep = {i, low, high, j - 1};
        std::sort(keep.begin(), keep.end());
        keep.erase(std::unique(keep.begin(), keep.end()), keep.end());
        for (const std::size_t k : keep) out.push_back(line[k]);
        i = j;
    }
    return out;
}

/// The pieces of a series between left-out points, in pixels.
std::vector<std::vector<Pixel>> pieces_of(const LineSeries& s, const Frame& f) {
    std::vector<std::vector<Pixel>> pieces(1);
    for (const ChartPoint& p : s.points) {
        if (!usable(p, f.log_y)) {
            if (!pieces.back().empty()) pieces.emplace_back();
            continue;
        }
        pieces.back().emplace_back(f.px(p.x), f.py(p.y));
    }
    if (pieces.back().empty()) pieces.pop_back();
    const double columns = std::max(1.0, f.right - f.left);
    for (auto& piece : pieces)
        if (static_cast<double>(piece.size()) > 4 * columns) piece = thin(piece);
    return pieces;
}

/// A piece as a staircase: each point's level runs from halfway to the previous point to halfway
/// to the next (the first from its own x, the last to its own x), joined by vertical risers.
std::vector<Pixel> staircase(const std::vector<Pixel>& piece) {
    std::vector<Pixel> out;
    for (std::size_t i = 0; i < piece.size(); ++i) {
        if (i == 0) {
            out.push_back(piece[0]);
            continue;
        }
        const double middle = (piece[i - 1].first + piece[i].first) / 2;
        out.emplace_back(middle, piece[i - 1].second);
        out.emplace_back(middle, piece[i].second);
    }
    if (piece.size() > 1) out.push_back(piece.back());
    return out;
}

struct PlacedLabel {
    double x = 0;      ///< marker position, px
    double centre = 0; ///< label centre, px (clamped into the chart)
    int row = 0;
    const VerticalMarker* marker = nullptr;
};

/// Greedy rows: each label goes on the first row where it clears the previous label by 6 px.
std::vector<PlacedLabel> place_labels(const LineChart& chart, const Frame& f, int& rows_used) {
    std::vector<PlacedLabel> placed;
    for (const VerticalMarker& m : chart.markers) {
        if (!std::isfinite(m.x) || m.x < f.x.lo || m.x > f.x.hi) continue;
        placed.push_back({f.px(m.x), 0, 0, &m});
    }
    std::stable_sort(placed.begin(), placed.end(), [](const PlacedLabel& a, const PlacedLabel& b) { return a.x < b.x; });
    std::vector<double> row_end;
    rows_used = 0;
    for (PlacedLabel& p : placed) {
        const double w = SvgCanvas::text_width(p.marker->label, kMarkerLabelSize);
        p.centre = std::clamp(p.x, w / 2 + 2, std::max(w / 2 + 2, chart.width - w / 2 - 2));
        const double left = p.centre - w / 2;
        int row = -1;
        for (std::size_t r = 0; r < row_end.size(); ++r)
            if (left > row_end[r] + 6) {
                row = static_cast<int>(r);
                break;
            }
        if (row < 0 && static_cast<int>(row_end.size()) < kMaxMarkerRows) {
            row_end.push_back(0);
            row = static_cast<int>(row_end.size()) - 1;
        }
        if (row < 0) row = static_cast<int>(std::min_element(row_end.begin(), row_end.end()) - row_end.begin());
        row_end[static_cast<std::size_t>(row)] = p.centre + w / 2;
        p.row = row;
        rows_used = std::max(rows_used, row + 1);
    }
    return placed;
}

std::string series_colour(const LineSeries& s, std::size_t position) {
    return palette_colour(s.colour.value_or(position));
}

void draw_axes(SvgCanvas& svg, const LineChart& chart, const Frame& f) {
    TextStyle tick{kTickSize, "middle", false, kAxisColour, 0};
    for (const double v : f.x.values) {
        const double x = f.px(v);
        svg.line(x, f.top, x, f.bottom, kGridColour, 1);
        svg.line(x, f.bottom, x, f.bottom + 4, kAxisColour, 1);
        svg.text(x, f.bottom + 17, format_tick(v, f.x.step), tick);
    }
    tick.anchor = "end";
    for (const double v : f.y.values) {
        const double y = f.py(v);
        svg.line(f.left, y, f.right, y, kGridColour, 1);
        svg.line(f.left - 4, y, f.left, y, kAxisColour, 1);
        svg.text(f.left - 7, y + 4, f.log_y ? format_tick(v, v) : format_tick(v, f.y.step), tick);
    }
    svg.line(f.left, f.bottom, f.right, f.bottom, kAxisColour, 1);
    svg.line(f.left, f.top, f.left, f.bottom, kAxisColour, 1);
    svg.text((f.left + f.right) / 2, f.bottom + 36, chart.x_label, {kLabelSize, "middle", false, "#222222", 0});
    svg.text(16, (f.top + f.bottom) / 2, chart.y_label, {kLabelSize, "middle", false, "#222222", -90});
}

void draw_legend(SvgCanvas& svg, const LineChart& chart, const Frame& f) {
    double y = f.top + 6;
    for (std::size_t i = 0; i < chart.series.size(); ++i) {
        const LineSeries& s = chart.series[i];
        if (s.name.empty()) continue;
        const std::string colour = series_colour(s, i);
        const double x = f.right + 16;
        svg.line(x, y, x + 22, y, colour, s.line_width, s.dash);
        if (s.markers) svg.circle(x + 11, y, 2.5, colour);
        svg.text(x + 28, y + 4, s.name, {kTickSize, "start", false, "#222222", 0});
        y += kLegendRowHeight;
    }
}

}  // namespace

std::string render_svg(const LineChart& chart) {
    if (!(chart.width >= 200 && chart.width <= 100000 && chart.height >= 150 && chart.height <= 100000))
        throw std::invalid_argument("LineChart: width must be in [200, 100000] and height in [150, 100000]");
    Frame f;
    f.log_y = chart.log_y;
    // Data ranges.
    bool any = false;
    double x0 = 0, x1 = 1, y0 = 0, y1 = 1;
    for (const LineSeries& s : chart.series)
        for (const ChartPoint& p : s.points) {
            if (!usable(p, chart.log_y)) continue;
            if (!any) {
                x0 = x1 = p.x;
                y0 = y1 = p.y;
                any = true;
            }
            x0 = std::min(x0, p.x);
            x1 = std::max(x1, p.x);
            y0 = std::min(y0, p.y);
            y1 = std::max(y1, p.y);
        }
    if (!any && chart.log_y) {
        y0 = 1;
        y1 = 10;
    }
    if (chart.y_from_zero && !chart.log_y) {
        y0 = std::min(y0, 0.0);
        y1 = std::max(y1, 0.0);
    }
    f.y = chart.log_y ? log_ticks(y0, y1) : linear_ticks(y0, y1, 6);

    // Horizontal layout: y tick labels and the y label on the left, the legend on the right.
    double tick_width = 0;
    for (const double v : f.y.values)
        tick_width = std::max(tick_width,
                              SvgCanvas::text_width(chart.log_y ? format_tick(v, v) : format_tick(v, f.y.step), kTickSize));
    f.left = std::round(30 + tick_width + 10);
    double legend = 0;
    for (const LineSeries& s : chart.series)
        if (!s.name.empty()) legend = std::max(legend, 16 + 28 + SvgCanvas::text_width(s.name, kTickSize) + 8);
    f.right = std::round(chart.width - std::clamp(legend, 24.0, chart.width * 0.35));
    const int x_target = std::clamp(static_cast<int>((f.right - f.left) / 80), 2, 10);
    f.x = linear_ticks(x0, x1, x_target);

    // Vertical layout: title, marker label rows, plot, x ticks and label.
    int rows = 0;
    std::vector<PlacedLabel> labels = place_labels(chart, f, rows);
    const double label_top = 36;
    f.top = label_top + rows * kMarkerRowHeight + (rows ? 8 : 4);
    f.bottom = chart.height - 48;
    if (f.bottom - f.top < 40) f.top = f.bottom - 40;

    SvgCanvas svg(chart.width, chart.height, chart.title);
    svg.text(chart.width / 2, 22, chart.title, {kTitleSize, "middle", true, "#111111", 0});
    draw_axes(svg, chart, f);
    for (const PlacedLabel& p : labels) {
        const double baseline = label_top + (p.row + 1) * kMarkerRowHeight - 3;
        svg.line(p.x, baseline + 3, p.x, f.top, kGridColour, 1);
        svg.line(p.x, f.top, p.x, f.bottom, kMarkerColour, 1, "4 3");
        svg.text(p.centre, baseline, p.marker->label, {kMarkerLabelSize, "middle", false, "#333333", 0});
    }
    for (std::size_t i = 0; i < chart.series.size(); ++i) {
        const LineSeries& s = chart.series[i];
        const std::string colour = series_colour(s, i);
        const auto pieces = pieces_of(s, f);
        std::size_t drawn = 0;
        for (const auto& piece : pieces) {
            svg.polyline(s.steps ? staircase(piece) : piece, colour, s.line_width, s.dash);
            drawn += piece.size();
        }
        if (!s.markers || static_cast<double>(drawn) * 4 > f.right - f.left) continue;
        for (const auto& piece : pieces)
            for (const auto& [x, y] : piece) svg.circle(x, y, 2.5, colour);
    }
    draw_legend(svg, chart, f);
    if (!any)
        svg.text((f.left + f.right) / 2, (f.top + f.bottom) / 2, "no data", {kLabelSize, "middle", false, "#777777", 0});
    return svg.finish();
}

}  // namespace gpusched::charts
