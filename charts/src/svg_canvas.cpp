// SvgCanvas: element writers for self-contained, deterministic SVG documents.
#include "gpusched/charts/svg_canvas.h"

#include "gpusched/charts/svg_format.h"

namespace gpusched::charts {

namespace {

std::string num(double v) { return format_number(v, 2); }

}  // namespace

SvgCanvas::SvgCanvas(double width, double height, std::string_view title) {
    out_ += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out_ += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(width) + "\" height=\"" + num(height) +
            "\" viewBox=\"0 0 " + num(width) + " " + num(height) + "\" font-family=\"sans-serif\">\n";
    out_ += "<title>" + escape_xml(title) + "</title>\n";
    out_ += "<rect x=\"0\" y=\"0\" width=\"" + num(width) + "\" height=\"" + num(height) + "\" fill=\"#ffffff\"/>\n";
}

void SvgCanvas::text(double x, double y, std::string_view text, const TextStyle& style) {
    out_ += "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" font-size=\"" + num(style.size) + "\"";
    if (style.anchor != "start") out_ += " text-anchor=\"" + escape_xml(style.anchor) + "\"";
    if (style.bold) out_ += " font-weight=\"bold\"";
    out_ += " fill=\"" + escape_xml(style.fill) + "\"";
    if (style.rotate != 0) out_ += " transform=\"rotate(" + num(style.rotate) + " " + num(x) + " " + num(y) + ")\"";
    out_ += ">" + escape_xml(text) + "</text>\n";
}

void SvgCanvas::line(double x1, double y1, double x2, double y2, std::string_view stroke, double width,
                     std::string_view dash) {
    out_ += "<line x1=\"" + num(x1) + "\" y1=\"" + num(y1) + "\" x2=\"" + num(x2) + "\" y2=\"" + num(y2) +
            "\" stroke=\"" + escape_xml(stroke) + "\" stroke-width=\"" + num(width) + "\"";
    if (!dash.empty()) out_ += " stroke-dasharray=\"" + escape_xml(dash) + "\"";
    out_ += "/>\n";
}

void SvgCanvas::rect(double x, double y, double w, double h, std::string_view fill, std::string_view stroke,
                     std::string_view tooltip) {
    out_ += "<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(w) + "\" height=\"" + num(h) +
            "\" fill=\"" + escape_xml(fill) + "\"";
    if (!stroke.empty()) out_ += " stroke=\"" + escape_xml(stroke) + "\" stroke-width=\"0.5\"";
    if (tooltip.empty()) {
        out_ += "/>\n";
        return;
    }
    out_ += "><title>" + escape_xml(tooltip) + "</title></rect>\n";
}

void SvgCanvas::polyline(const std::vector<std::pair<double, double>>& points, std::string_view stroke,
                         double width, std::string_view dash) {
    if (points.empty()) return;
    out_ += "<polyline fill=\"none\" stroke=\"" + escape_xml(stroke) + "\" stroke-width=\"" + num(width) +
            "\" stroke-linejoin=\"round\"";
    if (!dash.empty()) out_ += " stroke-dasharray=\"" + escape_xml(dash) + "\"";
    out_ += " points=\"";
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (i) out_ += ' ';
        out_ += num(points[i].first) + "," + num(points[i].second);
    }
    out_ += "\"/>\n";
}

void SvgCanvas::circle(double x, double y, double r, std::string_view fill) {
    out_ += "<circle cx=\"" + num(x) + "\" cy=\"" + num(y) + "\" r=\"" + num(r) + "\" fill=\"" + escape_xml(fill) +
            "\"/>\n";
}

void SvgCanvas::stroked_path(std::string_view d, std::string_view stroke, double width, bool crisp) {
    out_ += "<path fill=\"none\" stroke=\"" + escape_xml(stroke) + "\" stroke-width=\"" + num(width) + "\"";
    if (crisp) out_ += " shape-rendering=\"crispEdges\"";
    out_ += " d=\"" + escape_xml(d) + "\"/>\n";
}

std::string SvgCanvas::finish() {
    out_ += "</svg>\n";
    std::string done;
    done.swap(out_);
    return done;
}

double SvgCanvas::text_width(std::string_view text, double size) {
    std::size_t characters = 0;
    for (const char c : text)
        if ((static_cast<unsigned char>(c) & 0xc0U) != 0x80U) ++characters;  // count UTF-8 lead bytes only
    return 0.6 * size * static_cast<double>(characters);
}

}  // namespace gpusched::charts
