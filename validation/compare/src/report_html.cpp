// Shared pieces of the validation report: table cells, inline SVG, per-SM Gantt charts.
#include "report_html.h"

#include <algorithm>
#include <map>
#include <set>

#include "gpusched/charts/gantt_chart.h"
#include "gpusched/charts/svg_format.h"

namespace gpusched::validation {

std::string cell(const std::string& text, bool bad) {
    return std::string(bad ? "<td class=\"bad\">" : "<td>") + charts::escape_xml(text) + "</td>";
}

std::string row(const std::vector<std::string>& cells) {
    std::string h = "<tr>";
    for (const auto& c : cells) h += cell(c);
    return h + "</tr>\n";
}

std::string header(const std::vector<std::string>& names) {
    std::string h = "<tr>";
    for (const auto& n : names) h += "<th>" + charts::escape_xml(n) + "</th>";
    return h + "</tr>\n";
}

std::string inline_svg(const std::string& svg) {
    const auto at = svg.find("<svg");
    return at == std::string::npos ? svg : svg.substr(at);
}

std::string sm_gantt(const std::string& title, const std::vector<MeasuredBlock>& blocks, const std::vector<int>& sms,
                     GanttColour colour) {
    charts::GanttChart chart;
    chart.title = title;
    chart.row_height = sms.size() > 64 ? 4 : 10;
    chart.detail_px = 1000;  // merged per-row paths: the report stays a few MB for thousands of blocks
    std::map<int, std::size_t> row_of;
    for (int sm : sms) {
        row_of[sm] = chart.rows.size();
        chart.rows.push_back({"SM " + std::to_string(sm), {}});
    }
    Time first = ~Time{0};
    for (const auto& b : blocks) first = std::min(first, b.start);
    std::vector<const MeasuredBlock*> ordered;
    for (const auto& b : blocks) ordered.push_back(&b);
    std::sort(ordered.begin(), ordered.end(), [](const MeasuredBlock* a, const MeasuredBlock* b) {
        return a->start != b->start ? a->start < b->start : a->block < b->block;
    });
    std::map<int, std::size_t> seen;
    for (const MeasuredBlock* b : ordered) {
        const std::size_t position = seen[b->sm]++;
        const std::size_t k = colour == GanttColour::launch ? static_cast<std::size_t>(b->launch) : position;
        chart.rows[row_of.at(b->sm)].bars.push_back(
            {static_cast<double>(b->start - first) / 1e6, static_cast<double>(b->end - first) / 1e6, k % 8,
             "launch " + std::to_string(b->launch) + " block " + std::to_string(b->block)});
    }
    chart.caption = colour == GanttColour::launch ? "Colour: the launch (0 = Init, 1, 2, ... modulo 8)."
                                                  : "Colour: the block's position on its SM (1st, 2nd, ... modulo 8).";
    return inline_svg(charts::render_svg(chart));
}

std::vector<int> sms_of(const std::vector<MeasuredBlock>& a, const std::vector<MeasuredBlock>& b) {
    std::set<int> sms;
    for (const auto& x : a) sms.insert(x.sm);
    for (const auto& x : b) sms.insert(x.sm);
    return {sms.begin(), sms.end()};
}

}  // namespace gpusched::validation
