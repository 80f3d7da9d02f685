// The whatif section: predicted vs measured T(K)/T(whole GPU) as text tables, JSON, report charts and per-kernel tables.
#include "gpusched/validation/sections/whatif_section.h"

#include <cmath>
#include <filesystem>
#include <map>
#include <vector>

#include "gpusched/report/line_chart.h"
#include "gpusched/report/svg_format.h"
#include "../numeric_csv.h"
#include "../report_html.h"

namespace gpusched::validation {

namespace {

std::string ratio_cell_text(double measured, double simulated) {
    return measured > 0 ? fixed(simulated, 2) + " / " + fixed(measured, 2) : fixed(simulated, 2) + " / -";
}

void print_what_if(std::ostream& out, const WhatIfComparison& c, const std::string& dir) {
    out << "\nWhat-if on fewer SMs (" << dir << "): each workload's whole-GPU trace imported with its Nsight Compute "
        << "totals, simulated on K SMs (" << c.sm_rule << "), against the runs measured in green contexts of K SMs\n";
    report::TextTable t({"workload", "K", "measured_busy_us", "sim_busy_us", "measured_T(K)/T", "predicted_T(K)/T", "error_%",
                         "same_kernels"},
                        {false, true, true, true, true, true, true, false});
    for (const auto& w : c.workloads)
        for (const auto& p : w.points)
            t.add_row({w.name, std::to_string(p.sms), fixed(p.measured_busy_us, 1), fixed(p.simulated_busy_us, 1),
                       fixed(p.measured_ratio, 3), fixed(p.predicted_ratio, 3), fixed(p.error_percent, 1),
                       p.same_kernels ? "yes" : "NO"});
    t.print(out);
    report::TextTable r({"workload", "GPU", "kernels", "busy_err_%", "median_|kernel_err|_%", "max_|kernel_err|_%"},
                        {false, false, true, true, true, true});
    for (const auto& w : c.workloads)
        r.add_row({w.name, w.gpu, std::to_string(w.kernels.size()), fixed(w.reference_busy_error_percent, 2),
                   fixed(w.reference_kernel_median_abs_error_percent, 2), fixed(w.reference_kernel_max_abs_error_percent, 2)});
    r.print(out);
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
        report::TextTable o({"experiment", "K", "points", "median_|err|_%", "max_|err|_%"}, {false, true, true, true, true});
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
        nlohmann::ordered_json q{{"workload", w.name}, {"gpu", w.gpu}, {"reference_sms", w.reference_sms}, {"sms", w.sms},
                                 {"reference_busy_error_percent", w.reference_busy_error_percent},
                                 {"reference_kernel_median_abs_error_percent", w.reference_kernel_median_abs_error_percent},
                                 {"reference_kernel_max_abs_error_percent", w.reference_kernel_max_abs_error_percent}};
        for (const auto& p : w.points)
            q["points"].push_back({{"sms", p.sms}, {"measured_busy_us", p.measured_busy_us},
                                   {"simulated_busy_us", p.simulated_busy_us}, {"measured_ratio", p.measured_ratio},
                                   {"predicted_ratio", p.predicted_ratio}, {"error_percent", p.error_percent},
                                   {"same_kernels", p.same_kernels}});
        for (const auto& k : w.kernels)
            q["kernels"].push_back({{"index", k.index}, {"name", k.name}, {"blocks", k.blocks},
                                    {"blocks_per_sm", k.blocks_per_sm}, {"measured_us", k.measured_us},
                                    {"simulated_us", k.simulated_us}, {"waves_change", k.waves_change}});
        j["workloads"].push_back(q);
    }
    for (const auto& p : c.own)
        j["own"].push_back({{"experiment", p.experiment}, {"point", p.point}, {"sms", p.sms},
                            {"measured_ratio", p.measured_ratio}, {"predicted_ratio", p.predicted_ratio},
                            {"error_percent", p.error_percent}});
    return j;
}

std::string ratio_chart(const WhatIfComparison& c) {
    report::LineChart chart;
    chart.title = "T(K) / T(whole GPU) per profiled iteration: measured (solid) and predicted (dashed)";
    chart.x_label = "SMs (K)";
    chart.y_label = "busy time ratio";
    chart.log_y = true;
    for (std::size_t i = 0; i < c.workloads.size(); ++i) {
        const auto& w = c.workloads[i];
        report::LineSeries measured{w.name + " measured", {}, true, "", 1.5, i};
        report::LineSeries predicted{w.name + " predicted", {}, true, "6 3", 1.5, i};
        for (const auto& p : w.points) {
            measured.points.push_back({static_cast<double>(p.sms), p.measured_ratio});
            predicted.points.push_back({static_cast<double>(p.sms), p.predicted_ratio});
        }
        chart.series.push_back(measured);
        chart.series.push_back(predicted);
    }
    return inline_svg(report::render_svg(chart));
}

std::string kernel_table(const WhatIfWorkload& w) {
    std::vector<std::string> names{"#", "kernel", "blocks", "blocks/SM", "measured us (whole GPU)", "simulated us"};
    for (std::size_t i = 1; i < w.sms.size(); ++i) names.push_back("K=" + std::to_string(w.sms[i]) + " predicted / measured");
    std::string h = "<details><summary>" + report::escape_xml(w.name) + ": " + std::to_string(w.kernels.size()) +
                    " kernels (ratio of each kernel's duration to its whole-GPU duration; red: the wave count changes "
                    "and the prediction is off by more than 3%)</summary>\n<table>\n" + header(names);
    for (const auto& k : w.kernels) {
        h += "<tr>" + cell(std::to_string(k.index)) + cell(k.name) + cell(std::to_string(k.blocks)) +
             cell(std::to_string(k.blocks_per_sm)) + cell(fixed(k.measured_us[0], 2)) + cell(fixed(k.simulated_us[0], 2));
        for (std::size_t i = 1; i < w.sms.size(); ++i) {
            const double m = k.measured_us[0] > 0 ? k.measured_us[i] / k.measured_us[0] : 0;
            const double s = k.simulated_us[0] > 0 ? k.simulated_us[i] / k.simulated_us[0] : 0;
            h += cell(ratio_cell_text(m, s), k.waves_change[i] && m > 0 && std::abs(s / m - 1) > 0.03);
        }
        h += "</tr>\n";
    }
    return h + "</table>\n</details>\n";
}

std::string what_if_section(const WhatIfComparison& c, const std::string& dir) {
    std::string h = "<h1>What-if on fewer SMs</h1>\n<section id=\"whatif\">\n<p>Each workload's whole-GPU trace (" +
                    report::escape_xml(dir) + ") is imported with its Nsight Compute totals and simulated on the what-if "
                    "GPU of K SMs (" + report::escape_xml(c.sm_rule) + "); the same workload measured in a green context "
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
                    ".</p>\n" + ratio_chart(c) + "\n<table>\n" +
                    header({"workload", "K", "measured busy us", "simulated busy us", "measured T(K)/T", "predicted T(K)/T",
                            "error %", "same kernels"});
    for (const auto& w : c.workloads)
        for (const auto& p : w.points)
            h += "<tr>" + cell(w.name) + cell(std::to_string(p.sms)) + cell(fixed(p.measured_busy_us, 1)) +
                 cell(fixed(p.simulated_busy_us, 1)) + cell(fixed(p.measured_ratio, 3)) + cell(fixed(p.predicted_ratio, 3)) +
                 cell(fixed(p.error_percent, 1), std::abs(p.error_percent) > 10) + cell(p.same_kernels ? "yes" : "no", !p.same_kernels) +
                 "</tr>\n";
    h += "</table>\n<h2>Per kernel</h2>\n";
    for (const auto& w : c.workloads) h += kernel_table(w);
    if (!c.own.empty()) {
        h += "<h2>The project's own kernels in green contexts</h2>\n<p>" + std::to_string(c.own.size()) +
             " points (APSP queued curves, the series): median |error| of T(K)/T " + fixed(c.own_median_abs_error_percent, 1) +
             "%, max " + fixed(c.own_max_abs_error_percent, 1) + "%.</p>\n<details><summary>every point</summary>\n<table>\n" +
             header({"experiment", "point", "K", "measured T(K)/T", "predicted T(K)/T", "error %"});
        for (const auto& p : c.own)
            h += row({p.experiment, p.point, std::to_string(p.sms), fixed(p.measured_ratio, 3), fixed(p.predicted_ratio, 3),
                      fixed(p.error_percent, 1)});
        h += "</table>\n</details>\n";
    }
    return h + "</section>\n";
}

}  // namespace

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

}  // namespace gpusched::validation
