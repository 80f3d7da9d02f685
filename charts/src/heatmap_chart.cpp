// HeatmapChart rendering: cell grid, axis labels, colour bar, value labels where they fit.
#include "gpusched/charts/heatmap_chart.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

#include "chart_style.h"
#include "gpusched/charts/axis_ticks.h"
#include "gpusched/charts/svg_canvas.h"
#include "gpusched/charts/svg_format.h"

namespace gpusched::charts {

namespace {

constexpr std::size_t kMaxCells = 2000;
constexpr const char* kMissingColour = "#eeeeee";

/// Viridis at t = 0, 1/8, ..., 1.
constexpr std::array<std::array<int, 3>, 9> kAnchors = {{{68, 1, 84},
                                                          {71, 44, 122},
                                                          {59, 81, 139},
                                                          {44, 113, 142},
                                                          {33, 144, 141},
                                                          {39, 173, 129},
                                                          {92, 200, 99},
                                                          {170, 220, 50},
                                                          {253, 231, 37}}};

std::string hex(const std::array<int, 3>& rgb) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string out = "#";
    for (int c : rgb) {
        out += digits[(c >> 4) & 15];
        out += digits[c & 15];
    }
    return out;
}

/// Luminance-based text colour on a scale colour.
std::string text_on(double t) { return t > 0.55 ? "#000000" : "#ffffff"; }

std::string cell_text(double v) {
    const double a = std::fabs(v);
    if (a != 0 && (a >= 1e6 || a < 1e-3)) {
        const int exponent = static_cast<int>(std::floor(std::log10(a)));
        return format_number(v / std::pow(10.0, exponent), 2) + "e" + std::to_string(exponent);
    }
    return format_number(v, a >= 100 ? 0 : a >= 1 ? 2 : 3);
}

}  // namespace

std::string heat_colour(double t) {
    if (!std::isfinite(t)) t = 0;
    t = std::clamp(t, 0.0, 1.0) * static_cast<double>(kAnchors.size() - 1);
    const std::size_t i = std::min(static_cast<std::size_t>(t), kAnchors.size() - 2);
    const double f = t - static_cast<double>(i);
    std::array<int, 3> rgb{};
    for (int c = 0; c < 3; ++c)
        rgb[c] = static_cast<int>(std::lround(kAnchors[i][c] + f * (kAnchors[i + 1][c] - kAnchors[i][c])));
    return hex(rgb);
}

std::string render_svg(const HeatmapChart& chart) {
    const std::size_t rows = chart.y_labels.size(), cols = chart.x_labels.size();
    if (rows == 0 || cols == 0) throw std::invalid_argument("heatmap: no rows or no columns");
    if (rows > kMaxCells || cols > kMaxCells) throw std::invalid_argument("heatmap: more than 2000 rows or columns");
    if (chart.values.size() != rows) throw std::invalid_argument("heatmap: values rows differ from y labels");
    for (const auto& row : chart.values)
        if (row.size() != cols) throw std::invalid_argument("heatmap: a values row differs from the x labels");
    if (!(chart.cell_height >= 4 && chart.cell_height <= 400) || !(chart.cell_width >= 0 && chart.cell_width <= 400))
        throw std::invalid_argument("heatmap: cell size outside [4, 400] px");

    const auto usable = [&](const std::optional<double>& v) {
        return v && std::isfinite(*v) && (!chart.log_scale || *v > 0);
    };
    double lo = 0, hi = 0;
    bool any = false;
    for (const auto& row : chart.values)
        for (const auto& v : row)
            if (usable(v)) {
                const double x = chart.log_scale ? std::log10(*v) : *v;
                lo = any ? std::min(lo, x) : x;
                hi = any ? std::max(hi, x) : x;
                any = true;
            }
    const auto scale_t = [&](double v) {
        const double x = chart.log_scale ? std::log10(v) : v;
        return hi > lo ? (x - lo) / (hi - lo) : 0.5;
    };

    const double tick = style::kTickSize;
    double x_label_width = 0, y_label_width = 0;
    for (const auto& l : chart.x_labels) x_label_width = std::max(x_label_width, SvgCanvas::text_width(l, tick));
    for (const auto& l : chart.y_labels) y_label_width = std::max(y_label_width, SvgCanvas::text_width(l, tick));
    double value_width = 0;
    for (const auto& row : chart.values)
        for (const auto& v : row)
            if (usable(v)) value_width = std::max(value_width, SvgCanvas::text_width(cell_text(*v), 10));
    const double cw = chart.cell_width > 0 ? chart.cell_width : std::clamp(std::max(x_label_width, value_width) + 8, 28.0, 80.0);
    const double ch = chart.cell_height;
    const bool rotate_x = x_label_width + 4 > cw;
    const double left = 40 + y_label_width + 8;
    const double top = chart.title.empty() ? 20 : 44;
    const double grid_w = cw * static_cast<double>(cols), grid_h = ch * static_cast<double>(rows);
    const double x_axis_h = (rotate_x ? x_label_width * 0.75 + 10 : tick + 8) + 28;
    const double bar_x = left + grid_w + 24, bar_w = 16;
    const double legend_w = 110 + SvgCanvas::text_width(chart.value_label, tick);
    const double width = std::max(bar_x + legend_w, 300.0);
    const double height = std::max(top + grid_h + x_axis_h, top + 150);

    SvgCanvas svg(width, height, chart.title.empty() ? "heatmap" : chart.title);
    if (!chart.title.empty()) svg.text(width / 2, 26, chart.title, {style::kTitleSize, "middle", true});
    for (std::size_t r = 0; r < rows; ++r) {
        const double y = top + ch * static_cast<double>(r);
        svg.text(left - 6, y + ch / 2 + tick * 0.35, chart.y_labels[r], {tick, "end"});
        for (std::size_t c = 0; c < cols; ++c) {
            const double x = left + cw * static_cast<double>(c);
            const auto& v = chart.values[r][c];
            const std::string tip = chart.y_labels[r] + ", " + chart.x_labels[c] + ": " +
                                    (v ? format_number(*v, 6) : std::string("no data"));
            if (!usable(v)) {
                svg.rect(x, y, cw, ch, kMissingColour, "#ffffff", tip);
                continue;
            }
            const double t = scale_t(*v);
            svg.rect(x, y, cw, ch, heat_colour(t), "#ffffff", tip);
            const std::string text = cell_text(*v);
            if (SvgCanvas::text_width(text, 10) + 4 <= cw && ch >= 12)
                svg.text(x + cw / 2, y + ch / 2 + 3.5, text, {10, "middle", false, text_on(t)});
        }
    }
    for (std::size_t c = 0; c < cols; ++c) {
        const double x = left + cw * (static_cast<double>(c) + 0.5);
        if (rotate_x)
            svg.text(x + tick * 0.35, top + grid_h + 6, chart.x_labels[c], {tick, "end", false, "#222222", -90});
        else
            svg.text(x, top + grid_h + tick + 4, chart.x_labels[c], {tick, "middle"});
    }
    svg.text(left + grid_w / 2, top + grid_h + x_axis_h - 8, chart.x_label, {12, "middle"});
    svg.text(14, top + grid_h / 2, chart.y_label, {12, "middle", false, "#222222", -90});

    // Colour bar: 32 steps, top = high.
    const double bar_h = std::min(std::max(grid_h, 120.0), 300.0);
    constexpr int kSteps = 32;
    for (int i = 0; i < kSteps; ++i)
        svg.rect(bar_x, top + bar_h * i / kSteps, bar_w, bar_h / kSteps + 0.5,
                 heat_colour(1.0 - (i + 0.5) / kSteps));
    svg.rect(bar_x, top, bar_w, bar_h, "none", style::kAxisColour);
    if (any) {
        const AxisTicks ticks = chart.log_scale ? log_ticks(std::pow(10.0, lo), std::pow(10.0, hi))
                                : hi > lo       ? linear_ticks(lo, hi, 5)
                                                : linear_ticks(lo, lo, 1);
        for (double v : ticks.values) {
            const double x = chart.log_scale ? std::log10(v) : v;
            if (x < lo - 1e-9 * std::fabs(lo) || x > hi + 1e-9 * std::fabs(hi)) continue;
            const double y = top + bar_h * (1.0 - (hi > lo ? (x - lo) / (hi - lo) : 0.5));
            svg.line(bar_x + bar_w, y, bar_x + bar_w + 4, y, style::kAxisColour, 1);
            const std::string label = chart.log_scale ? cell_text(v) : format_tick(v, ticks.step);
            svg.text(bar_x + bar_w + 7, y + tick * 0.35, label, {tick});
        }
    }
    svg.text(bar_x, top + bar_h + 18, chart.value_label + (chart.log_scale ? " (log)" : ""), {tick});
    return svg.finish();
}

}  // namespace gpusched::charts
