// The trace_only section: T(K)/T and the other GPU's busy time predicted from traces alone, as text, JSON and HTML.
#include "experiments/trace_only/view.h"

#include <cmath>

#include "experiments/whatif/view.h"
#include "gpusched/charts/svg_format.h"
#include "gpusched/validation/section_registry.h"
#include "gpusched/validation/table_columns.h"
#include "numeric_csv.h"
#include "report_html.h"

namespace gpusched::validation {

namespace {

/// A row per workload traced on both GPUs: text, JSON "other_gpu" and the report's table.
const TableColumns<OtherGpuWorkload>& other_columns() {
    using O = OtherGpuWorkload;
    static const TableColumns<O> columns{
        text_column<O>({"workload", "workload", "workload"}, &O::name),
        text_column<O>({"from", "trace of", "reference_gpu"}, &O::reference_gpu),
        text_column<O>({"on", "simulated on", "other_gpu"}, &O::other_gpu),
        decimal_column<O>({"measured_busy_us", "measured busy us", "measured_other_busy_us"}, &O::measured_other_busy_us, 1),
        decimal_column<O>({"sim_busy_us", "simulated busy us", "simulated_other_busy_us"}, &O::simulated_other_busy_us, 1),
        decimal_column<O>({"error_%", "error %", "busy_error_percent"}, &O::busy_error_percent, 1)
            .red_when([](const O& o) { return std::abs(o.busy_error_percent) > 3; }),
        decimal_column<O>({"measured_ratio", "measured other/reference", "measured_ratio"}, &O::measured_ratio, 3),
        decimal_column<O>({"predicted_ratio", "predicted other/reference", "predicted_ratio"}, &O::predicted_ratio, 3),
        integer_column<O>({"kernels", "kernels", "kernels"}, &O::kernels),
        decimal_column<O>({"median_|kernel_err|_%", "median |kernel error| %", "kernel_median_abs_error_percent"},
                          &O::kernel_median_abs_error_percent, 1)
            .red_when([](const O& o) { return o.kernel_median_abs_error_percent > 5; }),
        decimal_column<O>({"max_|kernel_err|_%", "max |kernel error| %", "kernel_max_abs_error_percent"},
                          &O::kernel_max_abs_error_percent, 1),
    };
    return columns;
}

std::string summary_line(const WhatIfComparison& c) {
    return "busy-time ratio T(K)/T: median |error| " + fixed(c.median_abs_busy_error_percent, 1) + "%, max " +
           fixed(c.max_abs_busy_error_percent, 1) + "%";
}

}  // namespace

TraceOnlyView::TraceOnlyView(TraceOnlyComparison comparison, std::string dir)
    : comparison_(std::move(comparison)), dir_(std::move(dir)) {}

void TraceOnlyView::print_text(std::ostream& out) const {
    const auto& c = comparison_;
    out << "\nTrace-only what-if (" << dir_ << "/torch): each whole-GPU trace imported alone (no Nsight Compute), "
        << "simulated on K SMs (" << c.plain.sm_rule << "), against the runs measured in green contexts of K SMs\n";
    print_what_if_points(out, c.plain);
    out << summary_line(c.plain) << " (targets 5%, 10%)\n";
    if (c.has_shapes) {
        out << "\nTrace-only with input shapes (" << dir_ << "/" << c.shapes_dir << ": record_shapes and FLOPs)\n";
        print_what_if_points(out, c.shapes);
        out << summary_line(c.shapes) << " (target: median 3%)\n";
    }
    if (!c.other.empty()) {
        out << "\nTrace-only on another GPU (" << c.other_dir << "): each whole-GPU trace of " << dir_
            << "/torch simulated on the preset of the other GPU's trace of the same workload\n";
        other_columns().print_text(out, c.other);
        out << "busy time on the other GPU: median |error| " << fixed(c.other_median_abs_busy_error_percent, 1) << "%, max "
            << fixed(c.other_max_abs_busy_error_percent, 1) << "% (target 3% for every workload); per-kernel median |error| "
            << fixed(c.other_kernel_median_abs_error_percent, 1) << "% (target 5%)\n";
    }
}

void TraceOnlyView::add_json(nlohmann::ordered_json& top) const {
    const auto& c = comparison_;
    nlohmann::ordered_json j{{"plain", what_if_json(c.plain)}};
    if (c.has_shapes) j["shapes"] = what_if_json(c.shapes);
    j["other_dir"] = c.other_dir;
    j["other_median_abs_busy_error_percent"] = c.other_median_abs_busy_error_percent;
    j["other_max_abs_busy_error_percent"] = c.other_max_abs_busy_error_percent;
    j["other_kernel_median_abs_error_percent"] = c.other_kernel_median_abs_error_percent;
    j["other_gpu"] = nlohmann::ordered_json::array();
    for (const auto& o : c.other) j["other_gpu"].push_back(other_columns().json(o));
    top["trace_only"] = j;
}

std::string TraceOnlyView::report_part() const {
    const auto& c = comparison_;
    std::string h = "<h1>What-if from the trace alone</h1>\n<section id=\"trace_only\">\n<p>The traces of " +
                    charts::escape_xml(dir_) + "/torch imported as a user without Nsight Compute imports them (kernel "
                    "families, shapes when recorded, documented rules otherwise), simulated on K SMs. " +
                    summary_line(c.plain) + " (targets 5%, 10%).</p>\n" + what_if_points_html(c.plain);
    if (c.has_shapes)
        h += "<h2>With input shapes</h2>\n<p>" + summary_line(c.shapes) + " (target: median 3%).</p>\n" +
             what_if_points_html(c.shapes);
    if (!c.other.empty())
        h += "<h2>On another GPU</h2>\n<p>Each whole-GPU trace simulated on the preset of the GPU that ran " +
             charts::escape_xml(c.other_dir) + ": busy time median |error| " + fixed(c.other_median_abs_busy_error_percent, 1) +
             "%, max " + fixed(c.other_max_abs_busy_error_percent, 1) + "% (target 3%).</p>\n" + other_columns().html(c.other);
    return h + "</section>\n";
}

std::string TraceOnlySection::description() const {
    return "PyTorch traces imported without Nsight Compute, predicted on K SMs (torch/, torch_shapes/) and on the other GPU";
}

std::unique_ptr<SectionView> TraceOnlySection::run(const std::string& data_dir, const SectionSettings& settings) const {
    return std::make_unique<TraceOnlyView>(validate_trace_only(data_dir, settings.policy), data_dir);
}

namespace {
const SectionRegistration trace_only_registration{95, [] { return std::make_unique<TraceOnlySection>(); }};
}  // namespace

}  // namespace gpusched::validation
