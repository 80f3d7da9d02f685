// The h200 section: the H200's curves and series tables and the cross-GPU ratios as text, JSON and a report part.
#include "experiments/h200/view.h"

#include <sstream>

#include "experiments/curves/view.h"
#include "experiments/series/view.h"
#include "gpusched/charts/svg_format.h"
#include "gpusched/validation/section_registry.h"
#include "gpusched/validation/table_columns.h"
#include "report_html.h"

namespace gpusched::validation {

namespace {

/// A row per experiment measured on both GPUs: text and JSON "ratios" (the report shows the text).
const TableColumns<CrossGpuRatio>& ratio_columns() {
    using R = CrossGpuRatio;
    static const TableColumns<R> columns{
        text_column<R>({"experiment", "", "experiment"}, &R::experiment),
        integer_column<R>({"points", "", "points"}, &R::points),
        decimal_column<R>({"measured_median", "", "measured_median"}, &R::measured_median, 3),
        decimal_column<R>({"predicted_median", "", "predicted_median"}, &R::predicted_median, 3),
        decimal_column<R>({"median_|err|_%", "", "median_abs_error_percent"}, &R::median_abs_error_percent, 1),
        decimal_column<R>({"max_|err|_%", "", "max_abs_error_percent"}, &R::max_abs_error_percent, 1),
    };
    return columns;
}

}  // namespace

H200View::H200View(CrossGpuComparison comparison, std::string dir) : c_(std::move(comparison)), dir_(std::move(dir)) {}

void H200View::print_text(std::ostream& out) const {
    out << "\nh200: the H200's measurements of " << dir_ << " against the h200 preset\n";
    CurvesView(c_.curves, dir_ + "/curves").print_text(out);
    if (!c_.series.points.empty()) SeriesView(c_.series, dir_ + "/curves/binomial.csv").print_text(out);
    if (c_.h100_dir.empty()) {
        out << "\nH200 / H100: no H100 measurements beside " << dir_ << " (../h100)\n";
        return;
    }
    out << "\nH200 / H100 against " << c_.h100_dir << ": measured ratio of the same points and predicted ratio "
           "(h200 / h100 preset, uncalibrated)\n";
    ratio_columns().print_text(out, c_.ratios);
}

void H200View::add_json(nlohmann::ordered_json& top) const {
    nlohmann::ordered_json inner;
    CurvesView(c_.curves, dir_ + "/curves").add_json(inner);
    if (!c_.series.points.empty()) SeriesView(c_.series, dir_ + "/curves/binomial.csv").add_json(inner);
    nlohmann::ordered_json h{{"gpu", "h200"}, {"data", dir_}, {"h100_data", c_.h100_dir}};
    if (inner.contains("curves")) h["curves"] = inner["curves"];
    if (inner.contains("series")) h["series"] = inner["series"];
    h["ratios"] = ratio_columns().json_array(c_.ratios);
    top["h200"] = h;
}

std::string H200View::report_part() const {
    std::ostringstream text;
    print_text(text);
    return "<section id=\"h200\">\n<h2>H200 against the h200 preset, and H200 / H100</h2>\n<pre>" +
           charts::escape_xml(text.str()) + "</pre>\n</section>\n";
}

std::string H200Section::description() const {
    return "H200 data only: its curves and series on the h200 preset, and H200 / H100 ratios measured vs predicted";
}

std::unique_ptr<SectionView> H200Section::run(const std::string& data_dir, const SectionSettings& settings) const {
    if (!measured_on_h200(data_dir)) return nullptr;
    return std::make_unique<H200View>(validate_cross_gpu(data_dir, settings.policy), data_dir);
}

namespace {
const SectionRegistration h200_registration{100, [] { return std::make_unique<H200Section>(); }};
}  // namespace

}  // namespace gpusched::validation
