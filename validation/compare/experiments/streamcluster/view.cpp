// The streamcluster section: times over R as text tables, JSON and a report chart, table and timelines.
#include "experiments/streamcluster/view.h"

#include <cmath>
#include <filesystem>
#include <vector>

#include "gpusched/charts/line_chart.h"
#include "gpusched/charts/svg_format.h"
#include "gpusched/validation/section_registry.h"
#include "gpusched/validation/table_columns.h"
#include "report_html.h"

namespace gpusched::validation {

namespace {

/// Run time over log2 R: measured (solid) and simulated x f (dashed), documented keys (dotted).
std::string streamcluster_chart(const StreamclusterComparison& s) {
    charts::LineChart chart;
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
        charts::LineSeries measured{lines[k].name + ": measured", {}, true, "", 1.5, k};
        charts::LineSeries calibrated{lines[k].name + ": sim. x " + fixed(s.factor, 2), {}, true, "6 3", 1.5, k};
        charts::LineSeries documented{lines[k].name + ": " + s.documented_keys, {}, false, "2 3", 1.0, k};
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
    return inline_svg(charts::render_svg(chart));
}

nlohmann::ordered_json simulated_json(const StreamclusterSimulated& x) {
    return nlohmann::ordered_json{{"blocks", x.blocks}, {"kernel_us", x.kernel_us}, {"span_us", x.span_us},
                                  {"d2h_pinned_us", x.d2h_pinned_us}, {"d2h_pageable_us", x.d2h_pageable_us},
                                  {"total_pinned_us", x.total_pinned_us}, {"total_pageable_us", x.total_pageable_us}};
}

/// A row per measured timeline: the text's timeline table and each point's JSON "timeline".
const TableColumns<StreamclusterPoint>& timeline_columns() {
    using P = StreamclusterPoint;
    static const TableColumns<P> columns{
        shown_column<P>({"timeline R", "", ""}, [](const P& p) { return std::to_string(p.rake); }),
        integer_column<P>({"blocks", "", "blocks"}, &P::timeline_blocks),
        decimal_column<P>({"span_us", "", "span_us"}, &P::timeline_span_us, 1),
        json_column<P>("misplaced_blocks", &P::misplaced),
        shown_column<P>({"sim_span_us", "", ""}, [](const P& p) { return fixed(p.simulated.span_us, 1); }),
        integer_column<P>({"SMs", "", "measured_sms"}, &P::measured_sms),
        integer_column<P>({"sim_SMs", "", "simulated_sms"}, &P::simulated_sms),
        integer_column<P>({"max/SM", "", "measured_max_per_sm"}, &P::measured_max_per_sm),
        integer_column<P>({"sim_max/SM", "", "simulated_max_per_sm"}, &P::simulated_max_per_sm),
        shown_column<P>({"misplaced", "", ""}, [](const P& p) { return std::to_string(p.misplaced); }),
    };
    return columns;
}

constexpr int kKernelTable = 0;  ///< the text's kernel table
constexpr int kCopyTable = 1;    ///< the text's copy table

/// A row per rake size: JSON "points" (its keys first), the text's kernel and copy tables and the report's table
/// (one table with both); the doc_ columns only with documented keys (`doc`).
TableColumns<StreamclusterPoint> point_columns(bool doc) {
    using P = StreamclusterPoint;
    const auto us = [](double StreamclusterSimulated::*x) { return [x](const P& p) { return fixed(p.simulated.*x, 1); }; };
    const auto documented = [](double StreamclusterSimulated::*x) { return [x](const P& p) { return fixed(p.documented.*x, 1); }; };
    const auto off = [](double P::*error) { return [error](const P& p) { return std::abs(p.*error) > 25; }; };
    const auto doc_name = [doc](const char* name) { return doc ? std::string(name) : std::string(); };
    return TableColumns<P>{
        integer_column<P>({"R", "R", "rake"}, &P::rake),
        json_column<P>("tines", &P::tines),
        json_column<P>("grid_blocks", &P::grid_blocks),
        json_column<P>("workload_spec", &P::workload_spec),
        json_column<P>("measured_kernel_us", &P::measured_kernel_us),
        json_column<P>("measured_span_us", &P::measured_span_us),
        json_column<P>("measured_d2h_pinned_us", &P::measured_d2h_pinned_us),
        json_column<P>("measured_d2h_pageable_us", &P::measured_d2h_pageable_us),
        json_column<P>("measured_total_pinned_us", &P::measured_total_pinned_us),
        json_column<P>("measured_total_pageable_us", &P::measured_total_pageable_us),
        json_column<P>("simulated", [](const P& p) { return simulated_json(p.simulated); }),
        json_column<P>("calibrated_kernel_us", &P::calibrated_kernel_us),
        json_column<P>("calibrated_total_pinned_us", &P::calibrated_total_pinned_us),
        json_column<P>("calibrated_total_pageable_us", &P::calibrated_total_pageable_us),
        json_column<P>("kernel_error_percent", &P::kernel_error_percent),
        json_column<P>("span_error_percent", &P::span_error_percent),
        json_column<P>("d2h_pinned_error_percent", &P::d2h_pinned_error_percent),
        json_column<P>("d2h_pageable_error_percent", &P::d2h_pageable_error_percent),
        json_column<P>("total_pinned_error_percent", &P::total_pinned_error_percent),
        json_column<P>("total_pageable_error_percent", &P::total_pageable_error_percent),
        json_column<P>("documented", [](const P& p) { return simulated_json(p.documented); }).present_when([doc](const P&) { return doc; }),
        json_column<P>("documented_kernel_error_percent", &P::documented_kernel_error_percent).present_when([doc](const P&) { return doc; }),
        json_column<P>("timeline", [](const P& p) { return timeline_columns().json(p); }).present_when([](const P& p) { return p.has_timeline; }),
        // The kernel table.
        shown_column<P>({"blocks", "blocks", ""}, [](const P& p) { return std::to_string(p.simulated.blocks); }),
        decimal_column<P>({"kernel_us", "kernel us", ""}, &P::measured_kernel_us, 1),
        shown_column<P>({"sim_us", "simulated", ""}, us(&StreamclusterSimulated::kernel_us)),
        decimal_column<P>({"calibrated_us", "x f", ""}, &P::calibrated_kernel_us, 1),
        decimal_column<P>({"kernel_err_%", "error %", ""}, &P::kernel_error_percent, 1)
            .red_when(off(&P::kernel_error_percent)),
        decimal_column<P>({"span_us", "", ""}, &P::measured_span_us, 1),
        shown_column<P>({"sim_span_us", "", ""}, us(&StreamclusterSimulated::span_us)),
        // The copy table.
        shown_column<P>({"R", "", ""}, [](const P& p) { return std::to_string(p.rake); }).in_text_table(kCopyTable),
        decimal_column<P>({"d2h_pinned_us", "D2H pinned us", ""}, &P::measured_d2h_pinned_us, 1).in_text_table(kCopyTable),
        shown_column<P>({"sim", "simulated", ""}, us(&StreamclusterSimulated::d2h_pinned_us)).in_text_table(kCopyTable),
        decimal_column<P>({"err_%", "error %", ""}, &P::d2h_pinned_error_percent, 1)
            .red_when(off(&P::d2h_pinned_error_percent))
            .in_text_table(kCopyTable),
        decimal_column<P>({"d2h_pageable_us", "D2H pageable us", ""}, &P::measured_d2h_pageable_us, 1).in_text_table(kCopyTable),
        shown_column<P>({"sim", "simulated", ""}, us(&StreamclusterSimulated::d2h_pageable_us)).in_text_table(kCopyTable),
        decimal_column<P>({"err_%", "error %", ""}, &P::d2h_pageable_error_percent, 1)
            .red_when(off(&P::d2h_pageable_error_percent))
            .in_text_table(kCopyTable),
        decimal_column<P>({"total_pinned_us", "total pinned us", ""}, &P::measured_total_pinned_us, 1).in_text_table(kCopyTable),
        decimal_column<P>({"calibrated", "x f", ""}, &P::calibrated_total_pinned_us, 1).in_text_table(kCopyTable),
        decimal_column<P>({"total_pageable_us", "total pageable us", ""}, &P::measured_total_pageable_us, 1)
            .in_text_table(kCopyTable),
        decimal_column<P>({"calibrated", "x f", ""}, &P::calibrated_total_pageable_us, 1).in_text_table(kCopyTable),
        // With documented keys: the kernel table's and the copy table's doc_ columns.
        shown_column<P>({doc_name("doc_sim_us"), doc_name("kernel, doc keys"), ""}, documented(&StreamclusterSimulated::kernel_us)),
        decimal_column<P>({doc_name("doc_err_%"), doc_name("error %"), ""}, &P::documented_kernel_error_percent, 1)
            .red_when(off(&P::documented_kernel_error_percent)),
        shown_column<P>({doc_name("doc_pinned"), "", ""}, documented(&StreamclusterSimulated::total_pinned_us))
            .in_text_table(kCopyTable),
        shown_column<P>({doc_name("doc_pageable"), "", ""}, documented(&StreamclusterSimulated::total_pageable_us))
            .in_text_table(kCopyTable),
    };
}

void print_streamcluster(std::ostream& out, const StreamclusterComparison& s, const std::string& dir) {
    const bool doc = !s.documented_keys.empty();
    out << "\nstreamcluster of " << dir << " (shared execution, generator defaults): kernel calibrated once at R = "
        << s.reference_rake << " (the median measured block span; factor " << fixed(s.factor, 3)
        << ", applied to the kernel's span, not to the launch overhead or the copies)";
    if (doc) out << "; doc_ columns: uncalibrated, with the documented " << s.documented_keys;
    out << "\n";
    const auto columns = point_columns(doc);
    columns.print_text(out, s.points, kKernelTable);
    out << "kernel: median |error| " << fixed(s.median_abs_kernel_error_percent, 1) << "%, max "
        << fixed(s.max_abs_kernel_error_percent, 1) << "% (calibrated)";
    if (doc)
        out << "; documented keys: median " << fixed(s.median_abs_documented_kernel_error_percent, 1) << "%, max "
            << fixed(s.max_abs_documented_kernel_error_percent, 1) << "% (uncalibrated)";
    out << "; grids " << (s.grids_match ? "identical to the runner's" : "DIFFER from the runner's") << "\n";
    columns.print_text(out, s.points, kCopyTable);
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
    std::vector<const StreamclusterPoint*> timelines;
    for (const auto& p : s.points)
        if (p.has_timeline) timelines.push_back(&p);
    timeline_columns().print_text(out, timelines);
    out << "timelines: uncalibrated, generator defaults; " << s.total_misplaced << " blocks on another SM in all\n";
}

nlohmann::ordered_json streamcluster_json(const StreamclusterComparison& s) {
    const auto best = [](const StreamclusterBest& b) {
        return nlohmann::ordered_json{{"measured", b.measured}, {"simulated", b.simulated}, {"calibrated", b.calibrated},
                                      {"documented", b.documented}};
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
    const auto columns = point_columns(!s.documented_keys.empty());
    for (const auto& p : s.points) j["points"].push_back(columns.json(p));
    return j;
}

std::string streamcluster_section(const StreamclusterComparison& s) {
    const bool doc = !s.documented_keys.empty();
    const auto best = [&](const char* kind, const StreamclusterBest& b) {
        return std::string("<li>") + kind + ": measured R = " + std::to_string(b.measured) + ", simulated " +
               std::to_string(b.simulated) + ", simulated x f " + std::to_string(b.calibrated) +
               (doc ? ", with " + charts::escape_xml(s.documented_keys) + " " + std::to_string(b.documented) : "") + "</li>\n";
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
                    (doc ? " Dotted: uncalibrated, with the documented " + charts::escape_xml(s.documented_keys) +
                               " (fitted to the R = 512 row of this data): kernel median |error| " +
                               fixed(s.median_abs_documented_kernel_error_percent, 1) + "%, max " +
                               fixed(s.max_abs_documented_kernel_error_percent, 1) + "%."
                         : std::string()) +
                    " Simulated grids " + (s.grids_match ? "identical to the runner's" : "<b>differ</b> from the runner's") +
                    ".</p>\n<p>Best R by total time:</p>\n<ul>\n" + best("pinned", s.best_pinned) +
                    best("pageable", s.best_pageable) + "</ul>\n" + streamcluster_chart(s) + "\n";
    h += point_columns(doc).html(s.points);
    h += "<h2>streamcluster timelines (measured above simulated, uncalibrated)</h2>\n";
    for (const auto& p : s.points) {
        if (!p.has_timeline || p.measured_blocks.empty()) continue;
        const std::string name = "R = " + std::to_string(p.rake);
        const std::vector<int> sms = sms_of(p.measured_blocks, p.simulated_blocks);
        h += "<details><summary>" + charts::escape_xml(name) + ": " + std::to_string(p.timeline_blocks) +
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

namespace {
const SectionRegistration streamcluster_registration{70, [] { return std::make_unique<StreamclusterSection>(); }};
}  // namespace

}  // namespace gpusched::validation
