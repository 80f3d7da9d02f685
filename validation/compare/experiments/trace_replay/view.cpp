// The validate --trace view: per-step and per-kernel tables from one declaration of their columns.
#include "experiments/trace_replay/view.h"

#include <cmath>

#include "gpusched/charts/svg_format.h"
#include "gpusched/validation/table_columns.h"
#include "numeric_csv.h"
#include "report_html.h"

namespace gpusched::validation {

namespace {

const TableColumns<TraceStep>& step_columns() {
    using S = TraceStep;
    static const TableColumns<S> columns{
        integer_column<S>({"step", "step", "step"}, &S::step),
        integer_column<S>({"kernels", "kernels", "kernels"}, &S::kernels),
        decimal_column<S>({"measured_span_us", "measured span us", "measured_span_us"}, &S::measured_span_us, 1),
        decimal_column<S>({"sim_span_us", "simulated span us", "simulated_span_us"}, &S::simulated_span_us, 1),
        decimal_column<S>({"error_%", "error %", "span_error_percent"}, &S::span_error_percent, 1)
            .red_when([](const S& s) { return std::abs(s.span_error_percent) > 2; }),
        decimal_column<S>({"measured_busy_us", "measured busy us", "measured_busy_us"}, &S::measured_busy_us, 1),
        decimal_column<S>({"sim_busy_us", "simulated busy us", "simulated_busy_us"}, &S::simulated_busy_us, 1),
        decimal_column<S>({"sim_gpu_idle_%", "simulated GPU idle %", "simulated_idle_percent"}, &S::simulated_idle_percent, 1),
        decimal_column<S>({"sim_busy_%", "simulated GPU busy %", "simulated_gpu_busy_percent"}, &S::simulated_gpu_busy_percent, 1),
        decimal_column<S>({"sim_launch_%", "simulated launch overhead %", "simulated_launch_overhead_percent"},
                          &S::simulated_launch_overhead_percent, 1),
        decimal_column<S>({"sim_host_bound_%", "simulated host-bound %", "simulated_host_bound_percent"},
                          &S::simulated_host_bound_percent, 1),
        decimal_column<S>({"sim_sync_wait_us", "simulated host sync waits us", "simulated_sync_wait_us"}, &S::simulated_sync_wait_us, 1),
        decimal_column<S>({"median_|start_err|_%span", "median |start error| % of span", "start_median_abs_error_percent"},
                          &S::start_median_abs_error_percent, 2),
        decimal_column<S>({"max_|start_err|_%span", "max |start error| % of span", "start_max_abs_error_percent"},
                          &S::start_max_abs_error_percent, 2)
            .red_when([](const S& s) { return s.start_max_abs_error_percent > 2; }),
        decimal_column<S>({"median_|dur_err|_%", "median |duration error| %", "duration_median_abs_error_percent"},
                          &S::duration_median_abs_error_percent, 2),
    };
    return columns;
}

const TableColumns<TraceKernel>& kernel_columns() {
    using K = TraceKernel;
    static const TableColumns<K> columns{
        integer_column<K>({"", "#", "index"}, &K::index),
        text_column<K>({"", "kernel", "name"}, &K::name),
        decimal_column<K>({"", "measured start us", "measured_start_us"}, &K::measured_start_us, 2),
        decimal_column<K>({"", "simulated start us", "simulated_start_us"}, &K::simulated_start_us, 2),
        decimal_column<K>({"", "start error % of span", "start_error_percent_of_span"}, &K::start_error_percent_of_span, 2)
            .red_when([](const K& k) { return std::abs(k.start_error_percent_of_span) > 2; }),
        decimal_column<K>({"", "measured us", "measured_us"}, &K::measured_us, 2),
        decimal_column<K>({"", "simulated us", "simulated_us"}, &K::simulated_us, 2),
    };
    return columns;
}

std::string bottom_line(const TraceComparison& c) {
    return std::to_string(c.steps.size()) + " step" + (c.steps.size() == 1 ? "" : "s") + ": span median |error| " +
           fixed(c.span_median_abs_error_percent, 1) + "%, max " + fixed(c.span_max_abs_error_percent, 1) +
           "% (target 2%); kernel starts within " + fixed(c.start_max_abs_error_percent, 2) +
           "% of their step's span (target 2%)";
}

}  // namespace

TraceReplayView::TraceReplayView(TraceComparison comparison) : comparison_(std::move(comparison)) {}

void TraceReplayView::print_text(std::ostream& out) const {
    const auto& c = comparison_;
    out << "Trace " << c.trace << " against its simulation on " << c.gpu << " (" << c.policy << ", " << c.execution
        << "): each profiled step imported alone with its host timeline, as `gpusched import torch --steps N` does\n";
    step_columns().print_text(out, c.steps);
    out << bottom_line(c) << "\n";
}

void TraceReplayView::add_json(nlohmann::ordered_json& top) const {
    const auto& c = comparison_;
    nlohmann::ordered_json j{{"trace", c.trace},
                             {"gpu", c.gpu},
                             {"policy", c.policy},
                             {"execution", c.execution},
                             {"span_median_abs_error_percent", c.span_median_abs_error_percent},
                             {"span_max_abs_error_percent", c.span_max_abs_error_percent},
                             {"start_max_abs_error_percent", c.start_max_abs_error_percent}};
    j["steps"] = nlohmann::ordered_json::array();
    for (const auto& s : c.steps) {
        nlohmann::ordered_json q = step_columns().json(s);
        q["kernels_compared"] = nlohmann::ordered_json::array();
        for (const auto& k : s.kernel_rows) q["kernels_compared"].push_back(kernel_columns().json(k));
        j["steps"].push_back(q);
    }
    top["trace"] = j;
}

std::string TraceReplayView::report_part() const {
    const auto& c = comparison_;
    std::string h = "<h1>Trace against its simulation</h1>\n<section id=\"trace\">\n<p>" + charts::escape_xml(c.trace) +
                    " on " + charts::escape_xml(c.gpu) + ": " + charts::escape_xml(bottom_line(c)) + ".</p>\n" +
                    step_columns().html(c.steps);
    for (const auto& s : c.steps)
        h += "<details><summary>step " + std::to_string(s.step) + ": " + std::to_string(s.kernels) +
             " kernels</summary>\n" + kernel_columns().html(s.kernel_rows) + "</details>\n";
    return h + "</section>\n";
}

}  // namespace gpusched::validation
