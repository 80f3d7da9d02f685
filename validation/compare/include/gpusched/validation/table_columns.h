// A view's table declared once, column by column (headings, JSON key, format, value), printed as text, JSON and HTML.
#pragma once

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpusched::validation {

/// Where a column shows: its heading in the text table, its heading in the HTML table and its
/// key in each row's JSON object; "" leaves it out of that output.
struct ColumnNames {
    std::string text;
    std::string html;
    std::string json;
};

/// How a text column lines up: labels to the left, numbers to the right.
enum class Align { left, right };

/// One column of a table of `Row`s: how to show a row's value in each output.
template <class Row>
struct Column {
    ColumnNames names;
    Align align = Align::right;
    std::function<std::string(const Row&)> text;                          ///< the text cell, also the HTML cell's text
    std::function<std::optional<nlohmann::ordered_json>(const Row&)> json;  ///< the JSON value; nullopt leaves the key out
    std::function<std::string(const Row&)> html;      ///< the HTML cell's text where it differs from `text` (escaped)
    std::function<std::string(const Row&)> markup;    ///< the HTML cell's markup, not escaped (e.g. a link)
    std::function<bool(const Row&)> bad;              ///< the HTML cell shown red
    int text_table = 0;  ///< which text table shows it, where one declaration prints several (print_text's `table`)

    /// Shown in text table `table` of the declaration (0 unless told).
    Column in_text_table(int table) && {
        text_table = table;
        return std::move(*this);
    }
    /// The HTML cell red for the rows `when` picks.
    Column red_when(std::function<bool(const Row&)> when) && {
        bad = std::move(when);
        return std::move(*this);
    }
    /// The HTML cell's text, where it differs from the text cell.
    Column in_html_as(std::function<std::string(const Row&)> shown) && {
        html = std::move(shown);
        return std::move(*this);
    }
    /// The JSON value, where the column shows a value worked out for text and HTML (`names.json` its key).
    Column in_json_as(std::function<nlohmann::ordered_json(const Row&)> value) && {
        json = [value = std::move(value)](const Row& r) { return std::optional<nlohmann::ordered_json>(value(r)); };
        return std::move(*this);
    }
    /// The HTML cell as markup (not escaped).
    Column in_html_markup(std::function<std::string(const Row&)> shown) && {
        markup = std::move(shown);
        return std::move(*this);
    }
    /// The value only for the rows `when` picks: the others show "-" and leave the JSON key out.
    Column present_when(std::function<bool(const Row&)> when) && {
        text = [when, shown = text](const Row& r) { return when(r) ? shown(r) : std::string("-"); };
        if (html) html = [when, shown = html](const Row& r) { return when(r) ? shown(r) : std::string("-"); };
        if (json)
            json = [when, value = json](const Row& r) {
                return when(r) ? value(r) : std::optional<nlohmann::ordered_json>{};
            };
        return std::move(*this);
    }
};

/// A column of text (JSON: the string), lined up to the left unless told.
template <class Row, class Get>
Column<Row> text_column(ColumnNames names, Get get, Align align = Align::left) {
    return {std::move(names), align, [get](const Row& r) { return std::string(std::invoke(get, r)); },
            [get](const Row& r) { return std::optional<nlohmann::ordered_json>(std::invoke(get, r)); }, {}, {}, {}, 0};
}

/// A column of whole numbers (text: std::to_string; JSON: the number).
template <class Row, class Get>
Column<Row> integer_column(ColumnNames names, Get get) {
    return {std::move(names), Align::right, [get](const Row& r) { return std::to_string(std::invoke(get, r)); },
            [get](const Row& r) { return std::optional<nlohmann::ordered_json>(std::invoke(get, r)); }, {}, {}, {}, 0};
}

/// A column of real numbers: text with `digits` decimals, JSON the full value.
template <class Row, class Get>
Column<Row> decimal_column(ColumnNames names, Get get, int digits);

/// A value in the JSON only (any type nlohmann::json takes: numbers, strings, vectors).
template <class Row, class Get>
Column<Row> json_column(std::string key, Get get) {
    return {{"", "", std::move(key)}, Align::right, [](const Row&) { return std::string(); },
            [get](const Row& r) { return std::optional<nlohmann::ordered_json>(std::invoke(get, r)); }, {}, {}, {}, 0};
}

/// A cell worked out for the text and HTML tables, e.g. two values as "a/b": in the JSON only with
/// in_json_as (else the JSON gives its values as json_column columns).
template <class Row>
Column<Row> shown_column(ColumnNames names, std::function<std::string(const Row&)> text, Align align = Align::right) {
    return {std::move(names), align, std::move(text), {}, {}, {}, {}, 0};
}

/// One table, rendered the same way three times. Each output takes the columns that have a name for it, in order.
template <class Row>
class TableColumns {
public:
    TableColumns(std::initializer_list<Column<Row>> columns) : columns_(columns) {}
    explicit TableColumns(std::vector<Column<Row>> columns) : columns_(std::move(columns)) {}
    /// The columns of `parts`, one after the other (e.g. a run of columns two tables share in the middle).
    static TableColumns joined(std::vector<std::vector<Column<Row>>> parts) {
        std::vector<Column<Row>> columns;
        for (auto& part : parts)
            for (auto& column : part) columns.push_back(std::move(column));
        return TableColumns(std::move(columns));
    }

    /// The aligned text table (charts::TextTable) of `rows` (rows or pointers to them): the columns of text table `table`.
    template <class Rows>
    void print_text(std::ostream& out, const Rows& rows, int table = 0) const;
    /// One row as a JSON object, its keys in column order.
    nlohmann::ordered_json json(const Row& row) const;
    /// Every row as a JSON array (empty: []).
    template <class Rows>
    nlohmann::ordered_json json_array(const Rows& rows) const;
    /// "<table>\n", a header row, one row per `rows`, "</table>\n".
    template <class Rows>
    std::string html(const Rows& rows) const;

private:
    std::vector<Column<Row>> columns_;
};

// ----- what the templates call: the rendering, row type aside -----

/// `value` with `digits` decimals (charts::fixed).
std::string fixed_digits(double value, int digits);

/// A table as its cells: text headings and alignment, and per row the text cells.
void print_text_table(std::ostream& out, const std::vector<std::string>& headings, const std::vector<Align>& align,
                      const std::vector<std::vector<std::string>>& rows);

/// One HTML cell: its text (escaped) or markup (not), and whether it is shown red.
struct HtmlCell {
    std::string text;
    bool markup = false;
    bool bad = false;
};

/// "<table>\n", the header row of `headings`, the rows, "</table>\n".
std::string html_table(const std::vector<std::string>& headings, const std::vector<std::vector<HtmlCell>>& rows);

/// A row of a range of rows or of pointers to them.
template <class Row>
const Row& row_of(const Row& row) {
    return row;
}
template <class Row>
const Row& row_of(const Row* row) {
    return *row;
}

template <class Row, class Get>
Column<Row> decimal_column(ColumnNames names, Get get, int digits) {
    return {std::move(names), Align::right,
            [get, digits](const Row& r) { return fixed_digits(static_cast<double>(std::invoke(get, r)), digits); },
            [get](const Row& r) { return std::optional<nlohmann::ordered_json>(std::invoke(get, r)); }, {}, {}, {}, 0};
}

template <class Row>
template <class Rows>
void TableColumns<Row>::print_text(std::ostream& out, const Rows& rows, int table) const {
    const auto shown = [table](const Column<Row>& c) { return !c.names.text.empty() && c.text_table == table; };
    std::vector<std::string> headings;
    std::vector<Align> align;
    for (const auto& c : columns_)
        if (shown(c)) {
            headings.push_back(c.names.text);
            align.push_back(c.align);
        }
    std::vector<std::vector<std::string>> cells;
    for (const auto& x : rows) {
        const Row& r = row_of<Row>(x);
        auto& line = cells.emplace_back();
        for (const auto& c : columns_)
            if (shown(c)) line.push_back(c.text(r));
    }
    print_text_table(out, headings, align, cells);
}

template <class Row>
nlohmann::ordered_json TableColumns<Row>::json(const Row& row) const {
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    for (const auto& c : columns_)
        if (!c.names.json.empty() && c.json)
            if (auto value = c.json(row)) j[c.names.json] = std::move(*value);
    return j;
}

template <class Row>
template <class Rows>
nlohmann::ordered_json TableColumns<Row>::json_array(const Rows& rows) const {
    nlohmann::ordered_json a = nlohmann::ordered_json::array();
    for (const auto& r : rows) a.push_back(json(row_of<Row>(r)));
    return a;
}

template <class Row>
template <class Rows>
std::string TableColumns<Row>::html(const Rows& rows) const {
    std::vector<std::string> headings;
    for (const auto& c : columns_)
        if (!c.names.html.empty()) headings.push_back(c.names.html);
    std::vector<std::vector<HtmlCell>> cells;
    for (const auto& x : rows) {
        const Row& r = row_of<Row>(x);
        auto& line = cells.emplace_back();
        for (const auto& c : columns_) {
            if (c.names.html.empty()) continue;
            const bool bad = c.bad && c.bad(r);
            if (c.markup)
                line.push_back({c.markup(r), true, bad});
            else
                line.push_back({c.html ? c.html(r) : c.text(r), false, bad});
        }
    }
    return html_table(headings, cells);
}

}  // namespace gpusched::validation
