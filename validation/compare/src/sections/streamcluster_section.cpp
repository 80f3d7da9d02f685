// The streamcluster section: times over R as text tables, JSON and a report chart, table and timelines.
#include "gpusched/validation/sections/streamcluster_section.h"

#include <cmath>
#include <filesystem>
#include <vector>

#include "gpusched/report/line_chart.h"
#include "gpusched/report/svg_format.h"
#include "../report_html.h"

namespace gpusched::validation {

namespace {

/// Run time over log2 R: measured (solid) and simulated x f (dashed), documented keys (dotted).
std::string streamcluster_chart(const StreamclusterComparison& s) {
    report::LineChart chart;
    chart.title = "streamcluster: kernel + D2H copies per call over the rake size R (pinned, pageable host memory)";
    chart.x_label = "log2 R";
    chart.y_label = "time per call (us)";
    chart.log_y = true;
    chart.width = 900;
    chart.height = 480;
    struct Line {
        std::string name;
        double (*measured)(const StreamclusterPoint&);
        double (*calibrated)(const StreamclusterPoint&);
        double (*documented)(const StreamclusterPoint&);
    };
    const std::vector<Line> lines{
        {"pinned total", [](const StreamclusterPoint& p) { return p.measured_total_pinned_us; },
         [](const StreamclusterPoint& p) { return p.calibrated_total_pinned_us; },
         [](const StreamclusterPoint& p) { return p.documented.total_pinned_us; }},
        {"pageable total", [](const StreamclusterPoint& p) { return p.measured_total_pageable_us; },
         [](const StreamclusterPoint& p) { return p.calibrated_total_pageable_us; },
         [](const StreamclusterPoint& p) { return p.documented.total_pageable_us; }},
        {"kernel alone", [](const StreamclusterPoint& p) { return p.measured_kernel_us; },
         [](const StreamclusterPoint& p) { return p.calibrated_kernel_us; },
         [](const StreamclusterPoint& p) { return p.documented.kernel_us; }}};
    for (std::size_t k = 0; k < lines.size(); ++k) {
        report::LineSeries measured{lines[k].name + ": measured", {}, true, "", 1.5, k};
        report::LineSeries calibrated{lines[k].name + ": sim. x " + fixed(s.factor, 2), {}, true, "6 3", 1.5, k};
        report::LineSeries documented{lines[k].name + ": " + s.documented_keys, {}, false, "2 3", 1.0, k};
        for (const auto& p : s.points) {
            const double x = std::log2(p.rake);
            measured.points.push_back({x, lines[k].measured(p)});
            calibrated.points.push_back({x, lines[k].calibrated(p)});
            documented.points.push_back({x, lines[k].documented(p)});
        }
        chart.series.push_back(measured);
        chart.series.push_back(calibrated);
        if (!s.documented_keys.empty()) chart.series.push_back(documented);
    }
    return inline_svg(report::render_svg(chart));
}

void print_streamcluster(std::ostream& out, const StreamclusterComparison& s, const std::string& dir) {
    const bool doc = !s.documented_keys.empty();
    out << "\nstreamcluster of " << dir << " (shared execution, generator defaults): kernel calibrated once at R = "
        << s.reference_rake << " (the median measured block span; factor " << fixed(s.factor, 3)
        << ", applied to the kernel's span, not to the launch overhead or the copies)";
    if (doc) out << "; doc_ columns: uncalibrated, with the documented " << s.documented_keys;
    out << "\n";
    std::vector<std::string> head{"R", "blocks", "kernel_us", "sim_us", "calibrated_us", "kernel_err_%", "span_us", "sim_span_us"};
    if (doc) head.insert(head.end(), {"doc_sim_us", "doc_err_%"});
    report::TextTable k(head, std::vector<bool>(head.size(), true));
    for (const auto& p : s.points) {
        std::vector<std::string> row{std::to_string(p.rake), std::to_string(p.simulated.blocks), fixed(p.measured_kernel_us, 1),
                                     fixed(p.simulated.kernel_us, 1), fixed(p.calibrated_kernel_us, 1),
                                     fixed(p.kernel_error_percent, 1), fixed(p.measured_span_us, 1),
                                     fixed(p.simulated.span_us, 1)};
        if (doc) row.insert(row.end(), {fixed(p.documented.kernel_us, 1), fixed(p.documented_kernel_error_percent, 1)});
        k.add_row(row);
    }
    k.print(out);
    out << "kernel: median |error| " << fixed(s.median_abs_kernel_error_percent, 1) << "%, max "
        << fixed(s.max_abs_kernel_error_percent, 1) << "% (calibrated)";
    if (doc)
        out << "; documented keys: median " << fixed(s.median_abs_documented_kernel_error_percent, 1) << "%, max "
            << fixed(s.max_abs_documented_kernel_error_percent, 1) << "% (uncalibrated)";
    out << "; grids " << (s.grids_match ? "identical to the runner's" : "DIFFER from the runner's") << "\n";
    std::vector<std::string> copy_head{"R", "d2h_pinned_us", "sim", "err_%", "d2h_pageable_us", "sim", "err_%",
                                       "total_pinned_us", "calibrated", "total_pageable_us", "calibrated"};
    if (doc) copy_head.insert(copy_head.end(), {"doc_pinned", "doc_pageable"});
    report::TextTable c(copy_head, std::vector<bool>(copy_head.size(), true));
    for (const auto& p : s.points) {
        std::vector<std::string> row{std::to_string(p.rake), fixed(p.measured_d2h_pinned_us, 1),
                                     fixed(p.simulated.d2h_pinned_us, 1), fixed(p.d2h_pinned_error_percent, 1),
                                     fixed(p.measured_d2h_pageable_us, 1), fixed(p.simulated.d2h_pageable_us, 1),
                                     fixed(p.d2h_pageable_error_percent, 1), fixed(p.measured_total_pinned_us, 1),
                                     fixed(p.calibrated_total_pinned_us, 1), fixed(p.measured_total_pageable_us, 1),
                                     fixed(p.calibrated_total_pageable_us, 1)};
        if (doc) row.insert(row.end(), {fixed(p.documented.total_pinned_us, 1), fixed(p.documented.total_pageable_us, 1)});
        c.add_row(row);
    }
    c.print(out);
    out << "copies (uncalibrated): pinned median |error| " << fixed(s.median_abs_d2h_pinned_error_percent, 1) << "%, max "
        << fixed(s.max_abs_d2h_pinned_error_percent, 1) << "%; pageable median " << fixed(s.median_abs_d2h_pageable_error_percent, 1)
        << "%, max " << fixed(s.max_abs_d2h_pageable_error_percent, 1) << "%; calibrated totals: pinned median |error| "
        << fixed(s.median_abs_total_pinned_error_percent, 1) << "%, pageable "
        << fixed(s.median_abs_total_pageable_error_percent, 1) << "%\n";
    const auto best = [&](const char* kind, const StreamclusterBest& b) {
        out << "best R, " << kind << ": measured " << b.measured << ", simulated " << b.simulated << ", calibrated "
            << b.calibrated;
        if (doc) out << ", documented keys " << b.documented;
        out << "\n";
    };
    best("pinned", s.best_pinned);
    best("pageable", s.best_pageable);
    if (s.timelines == 0) return;
    report::TextTable t({"timeline R", "blocks", "span_us", "sim_span_us", "SMs", "sim_SMs", "max/SM", "sim_max/SM", "misplaced"},
                        std::vector<bool>(9, true));
    for (const auto& p : s.points)
        if (p.has_timeline)
            t.add_row({std::to_string(p.rake), std::to_string(p.timeline_blocks), fixed(p.timeline_span_us, 1),
                       fixed(p.simulated.span_us, 1), std::to_string(p.measured_sms), std::to_string(p.simulated_sms),
                       std::to_string(p.measured_max_per_sm), std::to_string(p.simulated_max_per_sm),
                       std::to_string(p.misplaced)});
    t.print(out);
    out << "timelines: uncalibrated, generator defaults; " << s.total_misplaced << " blocks on another SM in all\n";
}

nlohmann::ordered_json streamcluster_json(const StreamclusterComparison& s) {
    const auto best = [](const StreamclusterBest& b) {
        return nlohmann::ordered_json{{"measured", b.measured}, {"simulated", b.simulated}, {"calibrated", b.calibrated},
                                      {"documented", b.documented}};
    };
    const auto simulated = [](const StreamclusterSimulated& x) {
        return nlohmann::ordered_json{{"blocks", x.blocks}, {"kernel_us", x.kernel_us}, {"span_us", x.span_us},
                                      {"d2h_pinned_us", x.d2h_pinned_us}, {"d2h_pageable_us", x.d2h_pageable_us},
                                      {"total_pinned_us", x.total_pinned_us}, {"total_pageable_us", x.total_pageable_us}};
    };
    nlohmann::ordered_json j{{"reference_rake", s.reference_rake},
                             {"factor", s.factor},
                             {"documented_keys", s.documented_keys},
                             {"median_abs_kernel_error_percent", s.median_abs_kernel_error_percent},
                             {"max_abs_kernel_error_percent", s.max_abs_kernel_error_percent},
                             {"median_abs_d2h_pinned_error_percent", s.median_abs_d2h_pinned_error_percent},
                             {"max_abs_d2h_pinned_error_percent", s.max_abs_d2h_pinned_error_percent},
                             {"median_abs_d2h_pageable_error_percent", s.median_abs_d2h_pageable_error_percent},
                             {"max_abs_d2h_pageable_error_percent", s.max_abs_d2h_pageable_error_percent},
                             {"median_abs_total_pinned_error_percent", s.median_abs_total_pinned_error_percent},
                             {"median_abs_total_pageable_error_percent", s.median_abs_total_pageable_error_percent},
                             {"median_abs_documented_kernel_error_percent", s.median_abs_documented_kernel_error_percent},
                             {"max_abs_documented_kernel_error_percent", s.max_abs_documented_kernel_error_percent},
                             {"best_rake_pinned", best(s.best_pinned)},
                             {"best_rake_pageable", best(s.best_pageable)},
                             {"timelines", s.timelines},
                             {"misplaced_blocks", s.total_misplaced},
                             {"grids_match", s.grids_match}};
    for (const auto& p : s.points) {
        nlohmann::ordered_json q{{"rake", p.rake},
                                 {"tines", p.tines},
                                 {"grid_blocks", p.grid_blocks},
                                 {"workload_spec", p.workload_spec},
                                 {"measured_kernel_us", p.measured_kernel_us},
                                 {"measured_span_us", p.measured_span_us},
                                 {"measured_d2h_pinned_us", p.measured_d2h_pinned_us},
                                 {"measured_d2h_pageable_us", p.measured_d2h_pageable_us},
                                 {"measured_total_pinned_us", p.measured_total_pinned_us},
                                 {"measured_total_pageable_us", p.measured_total_pageable_us},
                                 {"simulated", simulated(p.simulated)},
                                 {"calibrated_kernel_us", p.calibrated_kernel_us},
                                 {"calibrated_total_pinned_us", p.calibrated_total_pinned_us},
                                 {"calibrated_total_pageable_us", p.calibrated_total_pageable_us},
                                 {"kernel_error_percent", p.kernel_error_percent},
                                 {"span_error_percent", p.span_error_percent},
                                 {"d2h_pinned_error_percent", p.d2h_pinned_error_percent},
                                 {"d2h_pageable_error_percent", p.d2h_pageable_error_percent},
                                 {"total_pinned_error_percent", p.total_pinned_error_percent},
                                 {"total_pageable_error_percent", p.total_pageable_error_percent}};
        if (!s.documented_keys.empty()) {
            q["documented"] = simulated(p.documented);
            q["documented_kernel_error_percent"] = p.documented_kernel_error_percent;
        }
        if (p.has_timeline)
            q["timeline"] = {{"blocks", p.timeline_blocks}, {"span_us", p.timeline_span_us},
                             {"misplaced_blocks", p.misplaced}, {"measured_sms", p.measured_sms},
                             {"simulated_sms", p.simulated_sms}, {"measured_max_per_sm", p.measured_max_per_sm},
                             {"simulated_max_per_sm", p.simulated_max_per_sm}};
        j["points"].push_back(q);
    }
    return j;
}

std::string streamcluster_section(const StreamclusterComparison& s) {
    const bool doc = !s.documented_keys.empty();
    const auto best = [&](const char* kind, const StreamclusterBest& b) {
        return std::string("<li>") + kind + ": measured R = " + std::to_string(b.measured) + ", simulated " +
               std::to_string(b.simulated) + ", simulated x f " + std::to_string(b.calibrated) +
               (doc ? ", with " + report::escape_xml(s.documented_keys) + " " + std::to_string(b.documented) : "") + "</li>\n";
    };
    std::string h = "<h1>streamcluster</h1>\n<section id=\"streamcluster\">\n<p>" + std::to_string(s.points.size()) +
                    " rake sizes R (pgain over the measured points, 256 threads), each simulated with the generator's "
                    "default keys and the <code>shared</code> execution model, the kernel alone and with its pinned or "
                    "pageable copies back. Kernel calibrated once, at R = " + std::to_string(s.reference_rake) +
                    " (the median measured block span; factor " + fixed(s.factor, 3) + ", applied to the kernel's "
                    "span, not to the launch overhead or the copies): kernel median |error| " +
                    fixed(s.median_abs_kernel_error_percent, 1) + "%, max " + fixed(s.max_abs_kernel_error_percent, 1) +
                    "%. Copies, uncalibrated: pinned median |error| " + fixed(s.median_abs_d2h_pinned_error_percent, 1) +
                    "%, pageable " + fixed(s.median_abs_d2h_pageable_error_percent, 1) + "%." +
                    (doc ? " Dotted: uncalibrated, with the documented " + report::escape_xml(s.documented_keys) +
                               " (fitted to the R = 512 row of this data): kernel median |error| " +
                               fixed(s.median_abs_documented_kernel_error_percent, 1) + "%, max " +
                               fixed(s.max_abs_documented_kernel_error_percent, 1) + "%."
                         : std::string()) +
                    " Simulated grids " + (s.grids_match ? "identical to the runner's" : "<b>differ</b> from the runner's") +
                    ".</p>\n<p>Best R by total time:</p>\n<ul>\n" + best("pinned", s.best_pinned) +
                    best("pageable", s.best_pageable) + "</ul>\n" + streamcluster_chart(s) + "\n<table>\n";
    std::vector<std::string> head{"R", "blocks", "kernel us", "simulated", "x f", "error %", "D2H pinned us", "simulated",
                                  "error %", "D2H pageable us", "simulated", "error %", "total pinned us", "x f",
                                  "total pageable us", "x f"};
    if (doc) head.insert(head.end(), {"kernel, doc keys", "error %"});
    h += header(head);
    for (const auto& p : s.points) {
        h += "<tr>" + cell(std::to_string(p.rake)) + cell(std::to_string(p.simulated.blocks)) +
             cell(fixed(p.measured_kernel_us, 1)) + cell(fixed(p.simulated.kernel_us, 1)) +
             cell(fixed(p.calibrated_kernel_us, 1)) + cell(fixed(p.kernel_error_percent, 1), std::abs(p.kernel_error_percent) > 25) +
             cell(fixed(p.measured_d2h_pinned_us, 1)) + cell(fixed(p.simulated.d2h_pinned_us, 1)) +
             cell(fixed(p.d2h_pinned_error_percent, 1), std::abs(p.d2h_pinned_error_percent) > 25) +
             cell(fixed(p.measured_d2h_pageable_us, 1)) + cell(fixed(p.simulated.d2h_pageable_us, 1)) +
             cell(fixed(p.d2h_pageable_error_percent, 1), std::abs(p.d2h_pageable_error_percent) > 25) +
             cell(fixed(p.measured_total_pinned_us, 1)) + cell(fixed(p.calibrated_total_pinned_us, 1)) +
             cell(fixed(p.measured_total_pageable_us, 1)) + cell(fixed(p.calibrated_total_pageable_us, 1));
        if (doc)
            h += cell(fixed(p.documented.kernel_us, 1)) +
                 cell(fixed(p.documented_kernel_error_percent, 1), std::abs(p.documented_kernel_error_percent) > 25);
        h += "</tr>\n";
    }
    h += "</table>\n<h2>streamcluster timelines (measured above simulated, uncalibrated)</h2>\n";
    for (const auto& p : s.points) {
        if (!p.has_timeline || p.measured_blocks.empty()) continue;
        const std::string name = "R = " + std::to_string(p.rake);
        const std::vector<int> sms = sms_of(p.measured_blocks, p.simulated_blocks);
        h += "<details><summary>" + report::escape_xml(name) + ": " + std::to_string(p.timeline_blocks) +
             " blocks, span " + fixed(p.timeline_span_us, 1) + " us measured, " + fixed(p.simulated.span_us, 1) +
             " us simulated, " + std::to_string(p.measured_sms) + " / " + std::to_string(p.simulated_sms) +
             " SMs used, " + std::to_string(p.misplaced) + " blocks on another SM</summary>\n" +
             sm_gantt("streamcluster " + name + ": measured", p.measured_blocks, sms) + "\n" +
             sm_gantt("streamcluster " + name + ": simulated", p.simulated_blocks, sms) + "\n</details>\n";
    }
    return h + "</section>\n";
}

}  // namespace

StreamclusterView::StreamclusterView(StreamclusterComparison comparison, std::string dir)
    : comparison_(std::move(comparison)), dir_(std::move(dir)) {}

void StreamclusterView::print_text(std::ostream& out) const { print_streamcluster(out, comparison_, dir_); }

void StreamclusterView::add_json(nlohmann::ordered_json& top) const { top["streamcluster"] = streamcluster_json(comparison_); }

std::string StreamclusterView::report_part() const { return streamcluster_section(comparison_); }

std::string StreamclusterSection::description() const {
    return "streamcluster kernel and copy times over the rake size R (generator defaults and documented keys)";
}

std::unique_ptr<SectionView> StreamclusterSection::run(const std::string& data_dir, const SectionSettings& settings) const {
    const std::string dir = (std::filesystem::path(data_dir) / "streamcluster").string();
    return std::make_unique<StreamclusterView>(validate_streamcluster(dir, settings.gpu, settings.policy, kStreamclusterDocumentedKeys,
                                                                       settings.keep_blocks), dir);
}

}  // namespace gpusched::validation
