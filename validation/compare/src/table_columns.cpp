// The rendering behind TableColumns: a text table and an HTML table from their cells.
#include "gpusched/validation/table_columns.h"

#include "gpusched/charts/text_table.h"
#include "report_html.h"

namespace gpusched::validation {

std::string fixed_digits(double value, int digits) { return charts::fixed(value, digits); }

void print_text_table(std::ostream& out, const std::vector<std::string>& headings, const std::vector<Align>& align,
                      const std::vector<std::vector<std::string>>& rows) {
    std::vector<bool> right;
    for (const Align a : align) right.push_back(a == Align::right);
    charts::TextTable table(headings, right);
    for (const auto& r : rows) table.add_row(r);
    table.print(out);
}

std::string html_table(const std::vector<std::string>& headings, const std::vector<std::vector<HtmlCell>>& rows) {
    std::string h = "<table>\n" + header(headings);
    for (const auto& r : rows) {
        h += "<tr>";
        for (const auto& c : r)
            h += c.markup ? std::string(c.bad ? "<td class=\"bad\">" : "<td>") + c.text + "</td>" : cell(c.text, c.bad);
        h += "</tr>\n";
    }
    return h + "</table>\n";
}

}  // namespace gpusched::validation
