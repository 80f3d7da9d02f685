// Plot data: filtering, grouping and aggregating result rows into chart data.
#include "gpusched/sweep/plot_data.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "gpusched/support/input_error.h"
#include "gpusched/support/yaml_fields.h"
#include "gpusched/charts/svg_format.h"
#include "gpusched/charts/time_unit.h"
#include "gpusched/support/csv_records.h"
#include "gpusched/sweep/results_reader.h"

namespace gpusched::sweep {

namespace {

constexpr std::size_t kMaxSeries = 64;

/// A time column (makespan_ns, span_us, time_ms): its name without the unit and the ns in one of its unit.
struct TimeColumn {
    std::string quantity;
    double nanoseconds = 1;
};

std::optional<TimeColumn> time_column(const std::string& column) {
    for (const auto& [suffix, ns] : {std::pair<const char*, double>{"_ns", 1}, {"_us", 1e3}, {"_ms", 1e6}}) {
        const std::string tail = suffix;
        if (column.size() > tail.size() && column.ends_with(tail))
            return TimeColumn{column.substr(0, column.size() - tail.size()), ns};
    }
    return std::nullopt;
}

/// An axis of column `column` whose values are `values`: time columns shown in the unit a person
/// reads (makespan_ns of 2.5e7 becomes "makespan (ms)", values / 1e6); other columns as they are.
/// Returns the axis label; scales the values in place.
std::string readable_axis(const std::string& column, const std::vector<double*>& values) {
    const auto time = time_column(column);
    if (!time) return column;
    double largest = 0;
    for (const double* v : values)
        if (std::isfinite(*v)) largest = std::max(largest, std::abs(*v) * time->nanoseconds);
    const charts::TimeUnit unit = charts::readable_time_unit(largest);
    const double scale = time->nanoseconds / unit.nanoseconds;
    for (double* v : values) *v *= scale;
    return time->quantity + " (" + unit.name + ")";
}

/// How messages name a field of the request: the caller's name for it, else the field's own.
std::string field(const PlotRequest& request, const std::string& name) {
    const auto it = request.field_names.find(name);
    return it == request.field_names.end() ? name : it->second;
}

struct Table {
    std::vector<std::string> columns;
    std::vector<std::vector<std::string>> rows;
    std::string source;

    [[nodiscard]] std::size_t column(const std::string& name, const std::string& field_name) const {
        for (std::size_t i = 0; i < columns.size(); ++i)
            if (columns[i] == name) return i;
        std::string list;
        for (const auto& c : columns) list += (list.empty() ? "" : ", ") + c;
        throw InputError(field_name + ": no column '" + name + "' in " + source + " (columns: " + list + ")");
    }
};

/// Rows without an error that pass every `where` filter, read record by record and kept within a ResultsRowBudget.
Table load(const ResultsRecordSource& next, const std::string& source, const PlotRequest& request) {
    Table t;
    t.source = source;
    CsvRecord record;
    bool more = next(record);
    while (more && record.cells.empty()) more = next(record);
    if (!more) throw InputError(source + ": no column line (expected a sweep results CSV)");
    t.columns = record.cells;
    std::vector<std::pair<std::size_t, std::string>> filters;
    for (const auto& [column, value] : request.where) filters.emplace_back(t.column(column, field(request, "where")), value);
    const auto error = std::find(t.columns.begin(), t.columns.end(), "error");
    ResultsRowBudget budget;
    while (next(record)) {
        auto& cells = record.cells;
        if (cells.empty()) continue;
        if (cells.size() != t.columns.size())
            throw InputError(source + ":" + std::to_string(record.line) + ": " + std::to_string(cells.size()) +
                             " cells; the column line has " + std::to_string(t.columns.size()));
        if (error != t.columns.end() && !cells[static_cast<std::size_t>(error - t.columns.begin())].empty()) continue;
        bool keep = true;
        for (const auto& [column, value] : filters) keep = keep && cells[column] == value;
        if (!keep) continue;
        std::size_t bytes = sizeof(cells) + 16;  // the row's vector and its allocation
        for (const auto& cell : cells) bytes += ResultsRowBudget::cost(cell);
        budget.keep(bytes, source + ":" + std::to_string(record.line));
        t.rows.push_back(std::move(cells));
    }
    return t;
}

double number(const Table& t, const std::vector<std::string>& row, std::size_t column, const PlotRequest& request,
              const std::string& axis) {
    const auto v = parse_number(row[column]);
    if (!v)
        throw InputError(field(request, axis) + ": column '" + t.columns[column] + "' has the non-numeric value '" +
                         row[column] + "' (a category: use it in " + field(request, "series") + " or " +
                         field(request, "where") + ")");
    return *v;
}

/// Combines the values that fall on one point of the plot.
double combine(const std::vector<double>& values, const std::vector<const std::vector<std::string>*>& rows,
               const Table& t, const PlotRequest& request, const std::string& where) {
    const std::string& aggregate = request.aggregate;
    if (values.size() == 1) return values.front();
    if (aggregate == "min") return *std::min_element(values.begin(), values.end());
    if (aggregate == "max") return *std::max_element(values.begin(), values.end());
    if (aggregate == "mean") {
        double sum = 0;
        for (double v : values) sum += v;
        return sum / static_cast<double>(values.size());
    }
    // Parameter columns come before the first metric ("execution"); `point` always differs.
    const auto metrics = std::find(t.columns.begin(), t.columns.end(), "execution");
    const auto parameters = static_cast<std::size_t>(metrics - t.columns.begin());
    std::string differ;
    for (std::size_t c = 0; c < parameters; ++c) {
        if (t.columns[c] == "point") continue;
        bool varies = false;
        for (const auto* row : rows) varies = varies || (*row)[c] != (*rows.front())[c];
        if (varies) differ += (differ.empty() ? "" : ", ") + t.columns[c];
    }
    throw InputError(std::to_string(values.size()) + " rows fall on " + where + "; they differ in " +
                     (differ.empty() ? std::string("no parameter") : differ) +
                     ": add those columns to " + field(request, "series") + " or fix them with " +
                     field(request, "where") + " COLUMN=VALUE, or give " + field(request, "aggregate") + " min|mean|max");
}

/// Distinct labels in order of first appearance, or numerically sorted when all numeric.
std::vector<std::string> ordered_labels(const Table& t, std::size_t column) {
    std::vector<std::string> labels;
    for (const auto& row : t.rows)
        if (!row[column].empty() && std::find(labels.begin(), labels.end(), row[column]) == labels.end()) labels.push_back(row[column]);
    const bool numeric = std::all_of(labels.begin(), labels.end(), [](const std::string& s) { return parse_number(s).has_value(); });
    if (numeric)
        std::stable_sort(labels.begin(), labels.end(),
                         [](const std::string& a, const std::string& b) { return *parse_number(a) < *parse_number(b); });
    return labels;
}

void check_aggregate(const PlotRequest& request) {
    const std::string& aggregate = request.aggregate;
    if (aggregate != "none" && aggregate != "min" && aggregate != "mean" && aggregate != "max")
        throw InputError(field(request, "aggregate") + ": expected none, min, mean or max, got '" + aggregate + "'");
}

charts::LineChart line_chart(const ResultsRecordSource& next, const std::string& source, const PlotRequest& request) {
    check_aggregate(request);
    const Table t = load(next, source, request);
    const std::size_t xc = t.column(request.x, field(request, "x")), yc = t.column(request.y, field(request, "y"));
    std::vector<std::size_t> sc;
    for (const auto& s : request.series) sc.push_back(t.column(s, field(request, "series")));
    if (t.rows.empty()) throw InputError(source + ": no rows to plot (all filtered out by " + field(request, "where") +
                                          " or with errors)");

    std::vector<std::string> names;
    std::map<std::string, std::map<double, std::pair<std::vector<double>, std::vector<const std::vector<std::string>*>>>> groups;
    for (const auto& row : t.rows) {
        if (row[xc].empty() || row[yc].empty()) continue;
        std::string name;
        for (std::size_t k = 0; k < sc.size(); ++k) name += (k ? ", " : "") + t.columns[sc[k]] + "=" + row[sc[k]];
        if (std::find(names.begin(), names.end(), name) == names.end()) {
            if (names.size() == kMaxSeries)
                throw InputError(field(request, "series") + ": more than " + std::to_string(kMaxSeries) +
                                 " lines; filter with " + field(request, "where"));
            names.push_back(name);
        }
        auto& cell = groups[name][number(t, row, xc, request, "x")];
        cell.first.push_back(number(t, row, yc, request, "y"));
        cell.second.push_back(&row);
    }
    charts::LineChart chart;
    chart.title = request.title.empty() ? request.y + " over " + request.x : request.title;
    chart.log_y = request.log;
    chart.y_from_zero = true;  // amounts compared between points: bars' rule (a log axis ignores it)
    for (const auto& name : names) {
        charts::LineSeries line;
        line.name = name;
        line.markers = true;
        for (const auto& [x, cell] : groups[name]) {
            const std::string where = "x = " + charts::format_number(x, 6) + (name.empty() ? "" : " of series '" + name + "'");
            line.points.push_back({x, combine(cell.first, cell.second, t, request, where)});
        }
        chart.series.push_back(std::move(line));
    }
    std::vector<double*> xs, ys;
    for (auto& line : chart.series)
        for (auto& p : line.points) xs.push_back(&p.x), ys.push_back(&p.y);
    chart.x_label = readable_axis(request.x, xs);
    chart.y_label = readable_axis(request.y, ys);
    return chart;
}

charts::HeatmapChart heatmap(const ResultsRecordSource& next, const std::string& source, const PlotRequest& request) {
    check_aggregate(request);
    const Table t = load(next, source, request);
    const std::size_t xc = t.column(request.x, field(request, "x")), yc = t.column(request.y, field(request, "y")),
                      vc = t.column(request.value, field(request, "value"));
    if (t.rows.empty()) throw InputError(source + ": no rows to plot (all filtered out by " + field(request, "where") +
                                          " or with errors)");
    charts::HeatmapChart chart;
    chart.x_labels = ordered_labels(t, xc);
    chart.y_labels = ordered_labels(t, yc);
    if (chart.x_labels.size() > 2000 || chart.y_labels.size() > 2000)
        throw InputError(field(request, "x") + "/" + field(request, "y") + ": more than 2000 distinct values; filter with " +
                         field(request, "where"));
    std::map<std::pair<std::size_t, std::size_t>, std::pair<std::vector<double>, std::vector<const std::vector<std::string>*>>> cells;
    for (const auto& row : t.rows) {
        if (row[vc].empty() || row[xc].empty() || row[yc].empty()) continue;
        const auto c = static_cast<std::size_t>(std::find(chart.x_labels.begin(), chart.x_labels.end(), row[xc]) - chart.x_labels.begin());
        const auto r = static_cast<std::size_t>(std::find(chart.y_labels.begin(), chart.y_labels.end(), row[yc]) - chart.y_labels.begin());
        auto& cell = cells[{r, c}];
        cell.first.push_back(number(t, row, vc, request, "value"));
        cell.second.push_back(&row);
    }
    chart.values.assign(chart.y_labels.size(), std::vector<std::optional<double>>(chart.x_labels.size()));
    for (const auto& [rc, cell] : cells)
        chart.values[rc.first][rc.second] =
            combine(cell.first, cell.second, t, request,
                    request.x + " = " + chart.x_labels[rc.second] + ", " + request.y + " = " + chart.y_labels[rc.first]);
    chart.title = request.title.empty() ? request.value + " over " + request.x + " x " + request.y : request.title;
    chart.x_label = request.x;
    chart.y_label = request.y;
    std::vector<double*> values;
    for (auto& row : chart.values)
        for (auto& v : row)
            if (v) values.push_back(&*v);
    chart.value_label = readable_axis(request.value, values);
    chart.log_scale = request.log;
    return chart;
}

}  // namespace

charts::LineChart line_chart_from_results(const std::string& csv, const std::string& source, const PlotRequest& request) {
    return line_chart(results_records(csv, source), source, request);
}

charts::HeatmapChart heatmap_from_results(const std::string& csv, const std::string& source, const PlotRequest& request) {
    return heatmap(results_records(csv, source), source, request);
}

charts::LineChart line_chart_from_results(ResultsReader& reader, const PlotRequest& request) {
    return line_chart(reader.source(), reader.path(), request);
}

charts::HeatmapChart heatmap_from_results(ResultsReader& reader, const PlotRequest& request) {
    return heatmap(reader.source(), reader.path(), request);
}

}  // namespace gpusched::sweep
