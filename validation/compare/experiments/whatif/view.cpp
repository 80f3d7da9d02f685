// The whatif section: predicted vs measured T(K)/T(whole GPU) as text tables, JSON, report charts and per-kernel tables.
#include "experiments/whatif/view.h"

#include <cmath>
#include <filesystem>
#include <map>
#include <vector>

#include "gpusched/charts/line_chart.h"
#include "gpusched/charts/svg_format.h"
#include "gpusched/validation/section_registry.h"
#include "gpusched/validation/table_columns.h"
#include "numeric_csv.h"
#include "report_html.h"

namespace gpusched::validation {

namespace {

std::string ratio_cell_text(double measured, double simulated) {
    return measured > 0 ? fixed(simulated, 2) + " / " + fixed(measured, 2) : fixed(simulated, 2) + " / -";
}

/// One measured K of one workload: a row of the ratio table.
struct PointRow {
    const WhatIfWorkload* w;
    const WhatIfPoint* p;
};

std::vector<PointRow> point_rows(const WhatIfComparison& c) {
    std::vector<PointRow> rows;
    for (const auto& w : c.workloads)
        for (const auto& p : w.points) rows.push_back({&w, &p});
    return rows;
}

/// A row per workload and K: text, JSON (each workload's "points") and the report's table.
const TableColumns<PointRow>& point_columns() {
    using R = PointRow;
    static const TableColumns<R> columns{
        text_column<R>({"workload", "workload", ""}, [](const R& r) { return r.w->name; }),
        integer_column<R>({"K", "K", "sms"}, [](const R& r) { return r.p->sms; }),
        decimal_column<R>({"measured_busy_us", "measured busy us", "measured_busy_us"}, [](const R& r) { return r.p->measured_busy_us; }, 1),
        decimal_column<R>({"sim_busy_us", "simulated busy us", "simulated_busy_us"}, [](const R& r) { return r.p->simulated_busy_us; }, 1),
        decimal_column<R>({"measured_T(K)/T", "measured T(K)/T", "measured_ratio"}, [](const R& r) { return r.p->measured_ratio; }, 3),
        decimal_column<R>({"predicted_T(K)/T", "predicted T(K)/T", "predicted_ratio"}, [](const R& r) { return r.p->predicted_ratio; }, 3),
        decimal_column<R>({"error_%", "error %", "error_percent"}, [](const R& r) { return r.p->error_percent; }, 1)
            .red_when([](const R& r) { return std::abs(r.p->error_percent) > 10; }),
        shown_column<R>({"same_kernels", "same kernels", "same_kernels"}, [](const R& r) { return r.p->same_kernels ? "yes" : "NO"; },
                        Align::left)
            .in_html_as([](const R& r) { return r.p->same_kernels ? "yes" : "no"; })
            .in_json_as([](const R& r) { return nlohmann::ordered_json(r.p->same_kernels); })
            .red_when([](const R& r) { return !r.p->same_kernels; }),
    };
    return columns;
}

/// A row per workload: text and JSON "workloads" (less their points and kernels).
const TableColumns<WhatIfWorkload>& workload_columns() {
    using W = WhatIfWorkload;
    static const TableColumns<W> columns{
        text_column<W>({"workload", "", "workload"}, &W::name),
        text_column<W>({"GPU", "", "gpu"}, &W::gpu),
        json_column<W>("reference_sms", &W::reference_sms),
        json_column<W>("sms", &W::sms),
        shown_column<W>({"kernels", "", ""}, [](const W& w) { return std::to_string(w.kernels.size()); }),
        decimal_column<W>({"busy_err_%", "", "reference_busy_error_percent"}, &W::reference_busy_error_percent, 2),
        decimal_column<W>({"median_|kernel_err|_%", "", "reference_kernel_median_abs_error_percent"},
                          &W::reference_kernel_median_abs_error_percent, 2),
        decimal_column<W>({"max_|kernel_err|_%", "", "reference_kernel_max_abs_error_percent"},
                          &W::reference_kernel_max_abs_error_percent, 2),
    };
    return columns;
}

/// A row per kernel of workload `w`: JSON "kernels" and the report's per-kernel table, a column per K after the reference.
TableColumns<WhatIfKernel> kernel_columns(const WhatIfWorkload& w) {
    using K = WhatIfKernel;
    std::vector<Column<K>> columns{
        integer_column<K>({"", "#", "index"}, &K::index),
        text_column<K>({"", "kernel", "name"}, &K::name),
        integer_column<K>({"", "blocks", "blocks"}, &K::blocks),
        integer_column<K>({"", "blocks/SM", "blocks_per_sm"}, &K::blocks_per_sm),
        shown_column<K>({"", "measured us (whole GPU)", "measured_us"}, [](const K& k) { return fixed(k.measured_us[0], 2); })
            .in_json_as([](const K& k) { return nlohmann::ordered_json(k.measured_us); }),
        shown_column<K>({"", "simulated us", "simulated_us"}, [](const K& k) { return fixed(k.simulated_us[0], 2); })
            .in_json_as([](const K& k) { return nlohmann::ordered_json(k.simulated_us); }),
        json_column<K>("waves_change", &K::waves_change),
    };
    for (std::size_t i = 1; i < w.sms.size(); ++i) {
        const auto ratios = [i](const K& k) {
            const double m = k.measured_us[0] > 0 ? k.measured_us[i] / k.measured_us[0] : 0;
            const double s = k.simulated_us[0] > 0 ? k.simulated_us[i] / k.simulated_us[0] : 0;
            return std::pair{m, s};
        };
        columns.push_back(shown_column<K>({"", "K=" + std::to_string(w.sms[i]) + " predicted / measured", ""},
                                          [ratios](const K& k) {
                                              const auto [m, s] = ratios(k);
                                              return ratio_cell_text(m, s);
                                          })
                              .red_when([ratios, i](const K& k) {
                                  const auto [m, s] = ratios(k);
                                  return k.waves_change[i] && m > 0 && std::abs(s / m - 1) > 0.03;
                              }));
    }
    return TableColumns<K>(std::move(columns));
}

/// A row per point of the project's own kernels: JSON "own" and the report's table (the text groups them).
const TableColumns<WhatIfOwnPoint>& own_columns() {
    using O = WhatIfOwnPoint;
    static const TableColumns<O> columns{
        text_column<O>({"", "experiment", "experiment"}, &O::experiment),
        text_column<O>({"", "point", "point"}, &O::point),
        integer_column<O>({"", "K", "sms"}, &O::sms),
        decimal_column<O>({"", "measured T(K)/T", "measured_ratio"}, &O::measured_ratio, 3),
        decimal_column<O>({"", "predicted T(K)/T", "predicted_ratio"}, &O::predicted_ratio, 3),
        decimal_column<O>({"", "error %", "error_percent"}, &O::error_percent, 1),
    };
    return columns;
}

void print_what_if(std::ostream& out, const WhatIfComparison& c, const std::string& dir) {
    out << "\nWhat-if on fewer SMs (" << dir << "): each workload's whole-GPU trace imported with its Nsight Compute "
        << "totals, simulated on K SMs (" << c.sm_rule << "), against the runs measured in green contexts of K SMs\n";
    point_columns().print_text(out, point_rows(c));
    workload_columns().print_text(out, c.workloads);
    out << "busy-time ratio T(K)/T: median |error| " << fixed(c.median_abs_busy_error_percent, 1) << "%, max "
        << fixed(c.max_abs_busy_error_percent, 1) << "% (targets 5%, 10%); reference reproduction per kernel: median |error| "
        << fixed(c.reference_kernel_median_abs_error_percent, 2) << "%, max " << fixed(c.reference_kernel_max_abs_error_percent, 2)
        << "% (target 2%); kernels whose wave count changes: " << c.wave_change_within_3_percent << " of "
        << c.wave_change_kernels << " within 3% (median |error| " << fixed(c.wave_change_median_abs_error_percent, 1) << "%)";
    if (c.wave_change_step_comparisons > 0)
        out << "; the measurement itself: another profiled step of the same runs gives the same pairs' ratio within 3% in "
            << c.wave_change_steps_within_3_percent << " of " << c.wave_change_step_comparisons << " comparisons";
    out << "\n";
    if (!c.own.empty()) {
        // Per experiment and K (every point is in the JSON and the report).
        std::map<std::pair<std::string, int>, std::vector<double>> groups;
        for (const auto& p : c.own) groups[{p.experiment, p.sms}].push_back(std::abs(p.error_percent));
        charts::TextTable o({"experiment", "K", "points", "median_|err|_%", "max_|err|_%"}, {false, true, true, true, true});
        for (auto it = groups.begin(); it != groups.end(); ++it) {
            const ErrorSummary e = summarise_errors(it->second);
            o.add_row({it->first.first, std::to_string(it->first.second), std::to_string(it->second.size()), fixed(e.median, 1),
                       fixed(e.max, 1)});
        }
        o.print(out);
        out << c.own.size() << " points of the project's own kernels (T(K)/T predicted vs measured): median |error| "
            << fixed(c.own_median_abs_error_percent, 1) << "%, max " << fixed(c.own_max_abs_error_percent, 1) << "%; series work keys: "
            << (c.own_series_work_file.empty() ? "the generator's defaults" : c.own_series_work_file) << "\n";
    }
}

std::string kernel_table(const WhatIfWorkload& w) {
    return "<details><summary>" + charts::escape_xml(w.name) + ": " + std::to_string(w.kernels.size()) +
           " kernels (ratio of each kernel's duration to its whole-GPU duration; red: the wave count changes "
           "and the prediction is off by more than 3%)</summary>\n" + kernel_columns(w).html(w.kernels) + "</details>\n";
}

std::string what_if_section(const WhatIfComparison& c, const std::string& dir) {
    std::string h = "<h1>What-if on fewer SMs</h1>\n<section id=\"whatif\">\n<p>Each workload's whole-GPU trace (" +
                    charts::escape_xml(dir) + ") is imported with its Nsight Compute totals and simulated on the what-if "
                    "GPU of K SMs (" + charts::escape_xml(c.sm_rule) + "); the same workload measured in a green context "
                    "of K SMs gives the measured ratio. Busy time: the union of the profiled iteration's kernel intervals. "
                    "Median |error| of the ratio " + fixed(c.median_abs_busy_error_percent, 1) + "%, max " +
                    fixed(c.max_abs_busy_error_percent, 1) + "% (targets 5% and 10%). On the whole GPU the per-kernel "
                    "durations reproduce the trace with median |error| " + fixed(c.reference_kernel_median_abs_error_percent, 2) +
                    "%, max " + fixed(c.reference_kernel_max_abs_error_percent, 2) + "% (calibration on the same measurement). "
                    "Kernels whose wave count changes with K: " + std::to_string(c.wave_change_within_3_percent) + " of " +
                    std::to_string(c.wave_change_kernels) + " within 3%" +
                    (c.wave_change_step_comparisons > 0
                         ? " (the measurement itself: another profiled step of the same runs gives their ratio within 3% in " +
                               std::to_string(c.wave_change_steps_within_3_percent) + " of " +
                               std::to_string(c.wave_change_step_comparisons) + " comparisons)"
                         : std::string()) +
                    ".</p>\n" + ratio_chart(c) + "\n" + point_columns().html(point_rows(c));
    h += "<h2>Per kernel</h2>\n";
    for (const auto& w : c.workloads) h += kernel_table(w);
    if (!c.own.empty()) {
        h += "<h2>The project's own kernels in green contexts</h2>\n<p>" + std::to_string(c.own.size()) +
             " points (APSP queued curves, the series): median |error| of T(K)/T " + fixed(c.own_median_abs_error_percent, 1) +
             "%, max " + fixed(c.own_max_abs_error_percent, 1) + "%.</p>\n<details><summary>every point</summary>\n" + own_columns().html(c.own);
        h += "</details>\n";
    }
    return h + "</section>\n";
}

}  // namespace

nlohmann::ordered_json what_if_json(const WhatIfComparison& c) {
    nlohmann::ordered_json j{{"sm_rule", c.sm_rule},
                             {"median_abs_busy_error_percent", c.median_abs_busy_error_percent},
                             {"max_abs_busy_error_percent", c.max_abs_busy_error_percent},
                             {"reference_kernel_median_abs_error_percent", c.reference_kernel_median_abs_error_percent},
                             {"reference_kernel_max_abs_error_percent", c.reference_kernel_max_abs_error_percent},
                             {"wave_change_kernels", c.wave_change_kernels},
                             {"wave_change_within_3_percent", c.wave_change_within_3_percent},
                             {"wave_change_median_abs_error_percent", c.wave_change_median_abs_error_percent},
                             {"wave_change_step_comparisons", c.wave_change_step_comparisons},
                             {"wave_change_steps_within_3_percent", c.wave_change_steps_within_3_percent},
                             {"own_median_abs_error_percent", c.own_median_abs_error_percent},
                             {"own_max_abs_error_percent", c.own_max_abs_error_percent},
                             {"own_series_work_file", c.own_series_work_file}};
    for (const auto& w : c.workloads) {
        nlohmann::ordered_json q = workload_columns().json(w);
        for (const auto& p : w.points) q["points"].push_back(point_columns().json({&w, &p}));
        const auto kernels = kernel_columns(w);
        for (const auto& k : w.kernels) q["kernels"].push_back(kernels.json(k));
        j["workloads"].push_back(q);
    }
    for (const auto& p : c.own) j["own"].push_back(own_columns().json(p));
    return j;
}

std::string ratio_chart(const WhatIfComparison& c) {
    charts::LineChart chart;
    chart.title = "T(K) / T(whole GPU) per profiled iteration: measured (solid) and predicted (dashed)";
    chart.x_label = "SMs (K)";
    chart.y_label = "busy time ratio";
    chart.log_y = true;
    for (std::size_t i = 0; i < c.workloads.size(); ++i) {
        const auto& w = c.workloads[i];
        charts::LineSeries measured{w.name + " measured", {}, true, "", 1.5, i};
        charts::LineSeries predicted{w.name + " predicted", {}, true, "6 3", 1.5, i};
        for (const auto& p : w.points) {
            measured.points.push_back({static_cast<double>(p.sms), p.measured_ratio});
            predicted.points.push_back({static_cast<double>(p.sms), p.predicted_ratio});
        }
        chart.series.push_back(measured);
        chart.series.push_back(predicted);
    }
    return inline_svg(charts::render_svg(chart));
}

void print_what_if_points(std::ostream& out, const WhatIfComparison& c) {
    point_columns().print_text(out, point_rows(c));
    workload_columns().print_text(out, c.workloads);
}

std::string what_if_points_html(const WhatIfComparison& c) { return ratio_chart(c) + "\n" + point_columns().html(point_rows(c)); }

WhatIfView::WhatIfView(WhatIfComparison comparison, std::string dir) : comparison_(std::move(comparison)), dir_(std::move(dir)) {}

void WhatIfView::print_text(std::ostream& out) const { print_what_if(out, comparison_, dir_); }

void WhatIfView::add_json(nlohmann::ordered_json& top) const { top["whatif"] = what_if_json(comparison_); }

std::string WhatIfView::report_part() const { return what_if_section(comparison_, dir_); }

std::string WhatIfSection::description() const {
    return "whole-GPU PyTorch traces predicted on K SMs against green-context runs of K SMs (and the own kernels in green/)";
}

std::unique_ptr<SectionView> WhatIfSection::run(const std::string& data_dir, const SectionSettings& settings) const {
    const std::string dir = (std::filesystem::path(data_dir) / "torch").string();
    const std::string green = (std::filesystem::path(data_dir) / "green").string();
    return std::make_unique<WhatIfView>(validate_what_if(dir, green, settings.policy), dir);
}

namespace {
const SectionRegistration whatif_registration{90, [] { return std::make_unique<WhatIfSection>(); }};
}  // namespace

}  // namespace gpusched::validation
