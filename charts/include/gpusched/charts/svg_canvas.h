// SvgCanvas: builds one self-contained SVG document (no scripts, no external fonts or files).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpusched::charts {

/// How a text element is drawn.
struct TextStyle {
    double size = 12;                  ///< font size, px
    std::string anchor = "start";      ///< start, middle, end
    bool bold = false;
    std::string fill = "#222222";
    double rotate = 0;                 ///< degrees about the anchor point (-90: reads upwards)
};

/// Appends elements to an SVG document. Every text and tooltip is XML-escaped; coordinates are
/// written with at most two decimals through format_number, so equal inputs give
/// byte-identical documents. The generic font family (sans-serif) keeps it self-contained.
///
///     SvgCanvas svg(760, 420, "title");
///     svg.line(0, 0, 10, 10, "#000000", 1);
///     std::string document = svg.finish();
class SvgCanvas {
public:
    /// Opens the document: the <svg> element, a <title> (escaped) and a white background.
    SvgCanvas(double width, double height, std::string_view title);

    void text(double x, double y, std::string_view text, const TextStyle& style = {});
    /// `dash`: an SVG stroke-dasharray such as "4 3", or empty for a solid line.
    void line(double x1, double y1, double x2, double y2, std::string_view stroke, double width,
              std::string_view dash = {});
    /// `stroke` empty: no outline. `tooltip` non-empty: a <title> child (shown on hover).
    void rect(double x, double y, double w, double h, std::string_view fill, std::string_view stroke = {},
              std::string_view tooltip = {});
    void polyline(const std::vector<std::pair<double, double>>& points, std::string_view stroke, double width,
                  std::string_view dash = {});
    void circle(double x, double y, double r, std::string_view fill);
    /// A <path> with path data `d` (the caller formats it), stroked and not filled.
    void stroked_path(std::string_view d, std::string_view stroke, double width, bool crisp);

    /// Closes the document and returns it; the canvas is empty afterwards.
    std::string finish();

    /// A deterministic estimate of the width of `text` in the generic sans-serif font at
    /// `size` px (0.6 em per character), for layout.
    static double text_width(std::string_view text, double size);

private:
    std::string out_;
};

}  // namespace gpusched::charts
