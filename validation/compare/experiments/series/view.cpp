// The series section: the binomial series as a text grid, JSON and a report chart and table.
#include "experiments/series/view.h"

#include <algorithm>
#include <filesystem>
#include <vector>

#include "gpusched/charts/line_chart.h"
#include "gpusched/charts/svg_format.h"
#include "gpusched/validation/section_registry.h"
#include "gpusched/validation/table_columns.h"
#include "report_html.h"

namespace gpusched::validation {

namespace {

/// A row per point: JSON "points" and the report's table (the text shows the errors as a blocks x threads grid).
const TableColumns<SeriesPoint>& point_columns() {
    using P = SeriesPoint;
    static const TableColumns<P> columns{
        integer_column<P>({"", "blocks", "blocks"}, &P::blocks),
        integer_column<P>({"", "threads", "threads"}, &P::threads),
        json_column<P>("terms", &P::terms),
        decimal_column<P>({"", "measured us", "measured_us"}, &P::measured_us, 2),
        decimal_column<P>({"", "simulated us", "simulated_us"}, &P::simulated_us, 2),
        decimal_column<P>({"", "calibrated us", "calibrated_us"}, &P::calibrated_us, 2),
        decimal_column<P>({"", "error %", "error_percent"}, &P::error_percent, 1),
    };
    return columns;
}

}  // namespace

SeriesView::SeriesView(SeriesComparison series, std::string csv) : series_(std::move(series)), csv_(std::move(csv)) {}

void SeriesView::print_text(std::ostream& out) const {
    const SeriesComparison& s = series_;
    out << "\nbinomial series of " << csv_ << ": error % after one-point calibration at " << s.reference_blocks
        << " blocks x " << s.reference_threads << " threads (factor " << fixed(s.factor, 3) << ")\n";
    if (!s.work_keys.empty()) out << "work keys from " << s.work_file << ": " << s.work_keys << "\n";
    std::vector<int> blocks;
    for (const auto& p : s.points)
        if (std::find(blocks.begin(), blocks.end(), p.blocks) == blocks.end()) blocks.push_back(p.blocks);
    std::sort(blocks.begin(), blocks.end());
    std::vector<std::string> head{"threads"};
    for (int b : blocks) head.push_back(std::to_string(b));
    charts::TextTable grid(head, std::vector<bool>(head.size(), true));
    for (std::size_t i = 0; i < s.points.size();) {
        const int threads = s.points[i].threads;
        std::vector<std::string> cells{std::to_string(threads)};
        for (int b : blocks) {
            const bool here = i < s.points.size() && s.points[i].threads == threads && s.points[i].blocks == b;
            cells.push_back(here ? fixed(s.points[i++].error_percent, 1) : "-");
        }
        grid.add_row(cells);
        while (i < s.points.size() && s.points[i].threads == threads) ++i;
    }
    grid.print(out);
    out << "median |error| " << fixed(s.median_abs_error_percent, 1) << "%, max " << fixed(s.max_abs_error_percent, 1)
        << "% (columns: blocks)\n";
}

void SeriesView::add_json(nlohmann::ordered_json& top) const {
    const SeriesComparison& series = series_;
    nlohmann::ordered_json s{{"reference_blocks", series.reference_blocks},
                             {"reference_threads", series.reference_threads},
                             {"factor", series.factor},
                             {"median_abs_error_percent", series.median_abs_error_percent},
                             {"max_abs_error_percent", series.max_abs_error_percent},
                             {"work_keys", series.work_keys},
                             {"work_file", series.work_file}};
    for (const auto& p : series.points) s["points"].push_back(point_columns().json(p));
    top["series"] = s;
}

std::string SeriesView::report_part() const {
    const SeriesComparison& s = series_;
    charts::LineChart chart;
    chart.title = "binomial series: run time over blocks, one line per block size";
    chart.x_label = "blocks";
    chart.y_label = "run time (us)";
    chart.log_y = true;
    chart.width = 900;
    chart.height = 520;
    std::vector<int> threads;
    for (const auto& p : s.points)
        if (std::find(threads.begin(), threads.end(), p.threads) == threads.end()) threads.push_back(p.threads);
    for (std::size_t k = 0; k < threads.size(); ++k) {
        charts::LineSeries measured{std::to_string(threads[k]) + " threads", {}, true, "", 1.5, k};
        charts::LineSeries simulated{"", {}, false, "6 3", 1.5, k};
        for (const auto& p : s.points) {
            if (p.threads != threads[k]) continue;
            measured.points.push_back({static_cast<double>(p.blocks), p.measured_us});
            simulated.points.push_back({static_cast<double>(p.blocks), p.calibrated_us});
        }
        chart.series.push_back(measured);
        chart.series.push_back(simulated);
    }
    std::string h = "<section id=\"series\">\n<h2>Binomial series (compute-bound paper)</h2>\n<p>Solid: measured; dashed: "
                    "simulated x " + fixed(s.factor, 3) + " (calibrated at " + std::to_string(s.reference_blocks) +
                    " blocks x " + std::to_string(s.reference_threads) + " threads). Median |error| " +
                    fixed(s.median_abs_error_percent, 1) + "%, max " + fixed(s.max_abs_error_percent, 1) + "%.</p>\n";
    if (!s.work_keys.empty())
        h += "<p>Work keys added to every point, from <code>" + charts::escape_xml(s.work_file) + "</code>: <code>" +
             charts::escape_xml(s.work_keys) + "</code>.</p>\n";
    h += inline_svg(charts::render_svg(chart)) + "\n" + point_columns().html(s.points);
    return h + "</section>\n";
}

std::string SeriesSection::description() const {
    return "the binomial series over blocks x threads, calibrated at one point";
}

std::unique_ptr<SectionView> SeriesSection::run(const std::string& data_dir, const SectionSettings& settings) const {
    const std::string csv = (std::filesystem::path(data_dir) / input()).string();
    return std::make_unique<SeriesView>(validate_series(csv, settings.gpu, settings.policy), csv);
}

namespace {
const SectionRegistration series_registration{40, [] { return std::make_unique<SeriesSection>(); }};
}  // namespace

}  // namespace gpusched::validation
