// GanttChart rendering: rows of bars rasterised to pixel columns, detailed bars, merged segments.
#include "gpusched/charts/gantt_chart.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <queue>
#include <stdexcept>

#include "gpusched/charts/axis_ticks.h"
#include "chart_style.h"
#include "gpusched/charts/palette.h"
#include "gpusched/charts/svg_canvas.h"
#include "gpusched/charts/svg_format.h"

namespace gpusched::charts {

namespace {

using namespace style;  // NOLINT(google-build-using-namespace): the shared chart constants

constexpr double kRowLabelSize = 11;
constexpr double kBarLabelSize = 9;
constexpr double kCaptionSize = 11;
constexpr double kLegendHeight = 20;
constexpr const char* kStripeColour = "#f4f4f4";

bool usable(const GanttBar& b) { return std::isfinite(b.start_us) && std::isfinite(b.end_us) && b.end_us >= b.start_us; }

/// Which bar shows in each pixel column of one row.
struct Column {
    double coverage = -1;  ///< -1: no bar
    std::size_t bar = 0;
};

/// Per pixel column, the bar of `lane` (indices into row.bars, in row order) covering most of
/// it (ties: the later bar).
std::vector<Column> rasterise(const GanttRow& row, const std::vector<std::size_t>& lane, double lo, double scale,
                              std::size_t columns) {
    std::vector<Column> grid(columns);
    for (const std::size_t i : lane) {
        const GanttBar& bar = row.bars[i];
        if (!usable(bar)) continue;
        const double a = (bar.start_us - lo) * scale;
        const double b = (bar.end_us - lo) * scale;
        const auto last_column = static_cast<double>(columns - 1);
        const auto c0 = static_cast<std::size_t>(std::clamp(std::floor(a), 0.0, last_column));
        const auto c1 = static_cast<std::size_t>(std::clamp(std::ceil(b) - 1, static_cast<double>(c0), last_column));
        for (std::size_t c = c0; c <= c1; ++c) {
            const double cell = static_cast<double>(c);
            const double coverage = std::max(0.0, std::min(b, cell + 1) - std::max(a, cell));
            if (coverage >= grid[c].coverage) grid[c] = {coverage, i};
        }
    }
    return grid;
}

/// The most bars of `row` that overlap at one time (an end at the instant of a start frees first).
std::size_t most_at_once(const GanttRow& row, const std::vector<std::size_t>& by_start) {
    std::priority_queue<double, std::vector<double>, std::greater<>> ends;  // of the bars still open
    std::size_t most = 0;
    for (const std::size_t i : by_start) {
        while (!ends.empty() && ends.top() <= row.bars[i].start_us) ends.pop();
        ends.push(row.bars[i].end_us);
        most = std::max(most, ends.size());
    }
    return most;
}

/// The row's bars in lanes (gantt_chart.h), each lane its bars in row order: by start (ties:
/// row order), each bar in the lowest lane free at its start. A row with more than `max_lanes`
/// bars at once is one lane; `crowded` tells which.
std::vector<std::vector<std::size_t>> assign_lanes(const GanttRow& row, std::size_t max_lanes, bool& crowded) {
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < row.bars.size(); ++i)
        if (usable(row.bars[i])) order.push_back(i);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return row.bars[a].start_us < row.bars[b].start_us; });
    crowded = most_at_once(row, order) > max_lanes;
    if (crowded || order.empty()) {
        std::sort(order.begin(), order.end());
        return {order};
    }
    std::vector<double> free_at;  // per lane: the end of its latest bar
    std::vector<std::vector<std::size_t>> lanes;
    for (const std::size_t i : order) {
        const GanttBar& bar = row.bars[i];
        std::size_t lane = 0;
        while (lane < free_at.size() && free_at[lane] > bar.start_us) ++lane;
        if (lane == free_at.size()) {
            free_at.push_back(bar.end_us);
            lanes.emplace_back();
        }
        free_at[lane] = bar.end_us;
        lanes[lane].push_back(i);
    }
    for (auto& lane : lanes) std::sort(lane.begin(), lane.end());
    return lanes;
}

std::string bar_tooltip(const GanttBar& bar) {
    const std::string times = format_number(bar.start_us, 3) + " - " + format_number(bar.end_us, 3) + " us";
    return bar.label.empty() ? times : bar.label + ": " + times;
}

/// Where one lane of a row is drawn.
struct LaneGeometry {
    double left = 0;       ///< x of the axis origin column
    double y = 0;          ///< top of the lane
    double height = 0;
    double lo = 0;         ///< the axis' first value (us)
    double scale = 0;      ///< pixels per us
    std::size_t columns = 0;
    double detail_px = 0;
};

/// One lane's bars: detailed bars as rects, narrower ones merged into per-colour paths.
void draw_lane(SvgCanvas& out, const GanttRow& row, const std::vector<std::size_t>& lane, const LaneGeometry& g) {
    const double pad = std::min(1.0, g.height / 4);
    const std::vector<Column> grid = rasterise(row, lane, g.lo, g.scale, g.columns);
    std::map<std::size_t, std::string> paths;  // colour -> path data of merged segments
    std::map<std::size_t, double> path_end;    // colour -> x where its last segment ended
    const auto narrow = [&](const GanttBar& b) { return (b.end_us - b.start_us) * g.scale < g.detail_px; };
    for (std::size_t c = 0; c < g.columns;) {
        if (grid[c].coverage < 0) {
            ++c;
            continue;
        }
        const GanttBar& bar = row.bars[grid[c].bar];
        const bool detailed = !narrow(bar);
        std::size_t e = c + 1;
        while (e < g.columns && grid[e].coverage >= 0 &&
               (detailed ? grid[e].bar == grid[c].bar
                         : row.bars[grid[e].bar].colour == bar.colour && narrow(row.bars[grid[e].bar])))
            ++e;
        const double x0 = g.left + static_cast<double>(c);
        const double w = static_cast<double>(e - c);
        if (detailed) {
            out.rect(x0, g.y + pad, w, g.height - 2 * pad, palette_colour(bar.colour), "#ffffff", bar_tooltip(bar));
            if (!bar.label.empty() && g.height >= 11 && SvgCanvas::text_width(bar.label, kBarLabelSize) + 4 <= w)
                out.text(x0 + w / 2, g.y + g.height / 2 + 3, bar.label,
                         {kBarLabelSize, "middle", false, palette_text_colour(bar.colour), 0});
        } else {
            std::string& d = paths[bar.colour];
            if (d.empty())
                d = "M" + format_number(x0, 2) + " " + format_number(g.y + g.height / 2, 2);
            else
                d += "m" + format_number(x0 - path_end[bar.colour], 2) + " 0";
            d += "h" + format_number(w, 2);
            path_end[bar.colour] = x0 + w;
        }
        c = e;
    }
    for (const auto& [colour, d] : paths) out.stroked_path(d, palette_colour(colour), g.height - 2 * pad, true);
}

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start <= text.size() && !text.empty()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

}  // namespace

std::string render_svg(const GanttChart& chart) {
    if (!(chart.width >= 300 && chart.width <= 100000))
        throw std::invalid_argument("GanttChart: width must be in [300, 100000]");
    if (!(chart.row_height >= 2 && chart.row_height <= 100))
        throw std::invalid_argument("GanttChart: row_height must be in [2, 100]");
    if (!(chart.detail_px >= 1 && chart.detail_px <= 1000))
        throw std::invalid_argument("GanttChart: detail_px must be in [1, 1000]");
    if (chart.rows.size() > 100000) throw std::invalid_argument("GanttChart: at most 100000 rows");

    double lo = 0, hi = 0;
    std::size_t bars = 0;
    for (const GanttRow& row : chart.rows)
        for (const GanttBar& bar : row.bars) {
            if (!usable(bar)) continue;
            lo = std::min(lo, bar.start_us);
            hi = std::max(hi, bar.end_us);
            ++bars;
        }
    double label_width = 0;
    for (const GanttRow& row : chart.rows)
        label_width = std::max(label_width, SvgCanvas::text_width(row.label, kRowLabelSize));
    const double left = std::round(std::min(chart.width / 3, label_width + 14));
    const double right = chart.width - 20;
    const auto columns = static_cast<std::size_t>(std::max(1.0, std::floor(right - left)));
    const int target = std::clamp(static_cast<int>(static_cast<double>(columns) / 90), 2, 12);
    const AxisTicks x = linear_ticks(lo, hi, target);
    const double scale = static_cast<double>(columns) / (x.hi - x.lo);

    const double top = 36;
    const double rh = chart.row_height;
    const double bottom = top + rh * static_cast<double>(chart.rows.size());
    const double legend_y = bottom + 52;

    std::size_t narrow = 0;
    for (const GanttRow& row : chart.rows)
        for (const GanttBar& bar : row.bars)
            if (usable(bar) && (bar.end_us - bar.start_us) * scale < chart.detail_px) ++narrow;

    // Layout of the legend and caption decides the height.
    std::vector<std::pair<double, double>> legend_at;  // (x, row) per colour name
    double lx = left, lrow = 0;
    for (const std::string& name : chart.colour_names) {
        const double w = 16 + SvgCanvas::text_width(name, kTickSize) + 14;
        if (lx + w > chart.width - 10 && lx > left) {
            lx = left;
            lrow += 1;
        }
        legend_at.emplace_back(lx, lrow);
        lx += w;
    }
    const double legend_rows = chart.colour_names.empty() ? 0 : lrow + 1;

    // Overlapping bars in lanes, each at least 3 px high.
    const auto max_lanes = static_cast<std::size_t>(std::max(1.0, std::floor(rh / 3)));
    std::vector<std::vector<std::vector<std::size_t>>> row_lanes;
    std::size_t crowded = 0;  // rows with more bars at once than lanes: one lane
    for (const GanttRow& row : chart.rows) {
        bool too_many = false;
        row_lanes.push_back(assign_lanes(row, max_lanes, too_many));
        if (too_many) ++crowded;
    }

    std::vector<std::string> caption = split_lines(chart.caption);
    std::string note = std::to_string(bars) + " bars on " + std::to_string(chart.rows.size()) + " rows";
    if (narrow > 0)
        note += "; " + std::to_string(narrow) + " narrower than " + format_number(chart.detail_px, 2) +
                " px are merged per pixel column";
    if (crowded > 0)
        note += "; " + std::to_string(crowded) + (crowded == 1 ? " row has" : " rows have") + " more than " +
                std::to_string(max_lanes) + " bars at once, drawn in one lane (the bar covering most of a pixel "
                "column shows)";
    caption.push_back(note);
    const double caption_y = legend_y + legend_rows * kLegendHeight + 4;
    const double height = caption_y + static_cast<double>(caption.size()) * 15 + 8;

    SvgCanvas out(chart.width, height, chart.title);
    out.text(chart.width / 2, 22, chart.title, {kTitleSize, "middle", true, "#111111", 0});
    for (std::size_t r = 0; r < chart.rows.size(); ++r)
        if (r % 2 == 1) out.rect(left, top + rh * static_cast<double>(r), right - left, rh, kStripeColour);
    for (const double v : x.values) {
        const double px = left + (v - x.lo) * scale;
        out.line(px, top, px, bottom, kGridColour, 1);
        out.line(px, bottom, px, bottom + 4, kAxisColour, 1);
        out.text(px, bottom + 17, format_tick(v, x.step), {kTickSize, "middle", false, kAxisColour, 0});
    }
    out.line(left, bottom, right, bottom, kAxisColour, 1);
    out.text((left + right) / 2, bottom + 34, chart.x_label, {12, "middle", false, "#222222", 0});

    // Rows thinner than a label: label every k-th row.
    const auto label_every = static_cast<std::size_t>(rh >= 10 ? 1 : std::ceil(10 / rh));
    for (std::size_t r = 0; r < chart.rows.size(); ++r) {
        const GanttRow& row = chart.rows[r];
        const double y = top + rh * static_cast<double>(r);
        if (r % label_every == 0)
            out.text(left - 6, y + rh / 2 + 4, row.label, {kRowLabelSize, "end", false, "#222222", 0});
        const auto& lanes = row_lanes[r];
        const double lh = rh / static_cast<double>(lanes.size());
        for (std::size_t l = 0; l < lanes.size(); ++l)
            draw_lane(out, row, lanes[l], {left, y + lh * static_cast<double>(l), lh, x.lo, scale, columns, chart.detail_px});
        std::string marks;  // underlines of marked bars
        // Marked bars are underlined over their own extent (whichever bar shows in those columns).
        std::vector<std::pair<double, double>> spans;
        for (const GanttBar& bar : row.bars)
            if (bar.marked && usable(bar))
                spans.emplace_back(std::floor((bar.start_us - x.lo) * scale), std::ceil((bar.end_us - x.lo) * scale));
        std::sort(spans.begin(), spans.end());
        for (std::size_t i = 0; i < spans.size();) {
            double a = spans[i].first, b = std::max(spans[i].second, a + 1);
            for (++i; i < spans.size() && spans[i].first <= b; ++i) b = std::max(b, spans[i].second);
            marks += "M" + format_number(left + a, 2) + " " + format_number(y + rh - 1.5, 2) + "h" + format_number(b - a, 2);
        }
        if (!marks.empty()) out.stroked_path(marks, "#000000", std::min(2.0, rh / 3), true);
    }
    for (const GanttMarker& m : chart.markers) {
        if (!std::isfinite(m.at_us) || m.at_us < x.lo || m.at_us > x.hi) continue;
        const double px = left + (m.at_us - x.lo) * scale;
        out.line(px, top - 2, px, bottom, "#444444", 1, "4 3");
        if (!m.label.empty()) out.text(px + 2, top - 4, m.label, {kBarLabelSize, "start", false, "#444444", 0});
    }

    for (std::size_t i = 0; i < chart.colour_names.size(); ++i) {
        const auto [lxi, lri] = legend_at[i];
        const double ly = legend_y + lri * kLegendHeight;
        out.rect(lxi, ly - 9, 12, 10, palette_colour(i));
        out.text(lxi + 16, ly, chart.colour_names[i], {kTickSize, "start", false, "#222222", 0});
    }
    for (std::size_t i = 0; i < caption.size(); ++i)
        out.text(left, caption_y + 12 + static_cast<double>(i) * 15, caption[i],
                 {kCaptionSize, "start", false, "#333333", 0});
    return out.finish();
}

}  // namespace gpusched::charts
