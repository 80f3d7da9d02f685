// The user-timelines view of gpusched validate: replayed timeline files as text, JSON and report (tables, per-SM charts, Gantt).
#include "experiments/user_timelines/view.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "gpusched/charts/line_chart.h"
#include "gpusched/charts/svg_format.h"
#include "gpusched/validation/table_columns.h"
#include "numeric_csv.h"
#include "report_html.h"

namespace gpusched::validation {

namespace {

constexpr double kReplayTargetPercent = 2.0;  ///< a file within 2% of its measured span


/// "min..max" blocks per SM over every SM of the GPU (an SM without blocks counts 0).
std::string per_sm_range(const std::map<int, int>& per_sm, int sm_count) {
    int lo = per_sm.size() < static_cast<std::size_t>(sm_count) ? 0 : std::numeric_limits<int>::max(), hi = 0;
    for (const auto& [sm, n] : per_sm) lo = std::min(lo, n), hi = std::max(hi, n);
    if (per_sm.empty()) lo = 0;
    return std::to_string(lo) + ".." + std::to_string(hi);
}

/// Blocks on SMs 0..max(sm_count, highest SM + 1) - 1.
std::vector<int> per_sm_array(const std::map<int, int>& per_sm, int sm_count) {
    int size = sm_count;
    if (!per_sm.empty()) size = std::max(size, per_sm.rbegin()->first + 1);
    std::vector<int> v(static_cast<std::size_t>(std::max(size, 0)), 0);
    for (const auto& [sm, n] : per_sm)
        if (sm >= 0) v[static_cast<std::size_t>(sm)] = n;
    return v;
}

struct Totals {
    int within = 0;
    int exact = 0;
    double worst = 0;
};

Totals totals_of(const UserTimelines& t) {
    Totals s;
    for (const auto& f : t.files) {
        s.within += std::abs(f.replay.error_percent) <= kReplayTargetPercent ? 1 : 0;
        s.exact += f.replay.misplaced == 0 ? 1 : 0;
        s.worst = std::max(s.worst, std::abs(f.replay.error_percent));
    }
    return s;
}

std::string bottom_line(const UserTimelines& t) {
    const Totals s = totals_of(t);
    return std::to_string(t.files.size()) + " files: " + std::to_string(s.within) + " within " + fixed(kReplayTargetPercent, 0) +
           "% of the measured span (worst " + fixed(s.worst, 2) + "%), " + std::to_string(s.exact) +
           " with per-SM block counts exactly as measured";
}

/// A row per file: text, JSON "files" (their launch spans from launch_columns) and the report's table. The text
/// table shows walk_start at its end only where some file has one (`walk`); the JSON has it always.
TableColumns<UserTimelineComparison> file_columns(int sm_count, bool walk) {
    using F = UserTimelineComparison;
    return TableColumns<F>{
        text_column<F>({"file", "file", "file"}, &F::file).in_html_markup([](const F& f) {
            return "<a href=\"#" + charts::escape_xml(f.file) + "\">" + charts::escape_xml(f.file) + "</a>";
        }),
        text_column<F>({"kernel", "kernel", "kernel"}, &F::kernel),
        json_column<F>("device", &F::device),
        integer_column<F>({"launches", "launches", "launches"}, &F::launches),
        integer_column<F>({"blocks", "blocks", "blocks"}, [](const F& f) { return f.replay.blocks; }),
        json_column<F>("threads", &F::threads),
        json_column<F>("regs", &F::regs),
        json_column<F>("smem", &F::smem),
        decimal_column<F>({"measured_us", "measured us", "measured_us"}, [](const F& f) { return f.replay.measured_us; }, 3),
        decimal_column<F>({"simulated_us", "simulated us", "simulated_us"}, [](const F& f) { return f.replay.simulated_us; }, 3),
        decimal_column<F>({"error_%", "error %", "error_percent"}, [](const F& f) { return f.replay.error_percent; }, 2)
            .red_when([](const F& f) { return std::abs(f.replay.error_percent) > kReplayTargetPercent; }),
        integer_column<F>({"misplaced", "blocks on another SM", "misplaced_blocks"}, [](const F& f) { return f.replay.misplaced; }),
        shown_column<F>({"waves", "waves measured / simulated", ""},
                        [](const F& f) { return std::to_string(f.replay.measured_waves) + "/" + std::to_string(f.replay.simulated_waves); })
            .in_html_as([](const F& f) {
                return std::to_string(f.replay.measured_waves) + " / " + std::to_string(f.replay.simulated_waves);
            }),
        json_column<F>("measured_waves", [](const F& f) { return f.replay.measured_waves; }),
        json_column<F>("simulated_waves", [](const F& f) { return f.replay.simulated_waves; }),
        decimal_column<F>({"start_ks", "start-time KS distance", "start_ks_distance"}, [](const F& f) { return f.replay.start_distance; }, 3),
        json_column<F>("walk_start", [](const F& f) { return f.replay.walk_start; }),
        shown_column<F>({"blocks/SM_measured", "blocks per SM measured", "measured_blocks_per_sm"},
                        [sm_count](const F& f) { return per_sm_range(f.replay.measured_per_sm, sm_count); })
            .in_json_as([sm_count](const F& f) { return nlohmann::ordered_json(per_sm_array(f.replay.measured_per_sm, sm_count)); }),
        shown_column<F>({"blocks/SM_simulated", "blocks per SM simulated", "simulated_blocks_per_sm"},
                        [sm_count](const F& f) { return per_sm_range(f.replay.simulated_per_sm, sm_count); })
            .in_json_as([sm_count](const F& f) { return nlohmann::ordered_json(per_sm_array(f.replay.simulated_per_sm, sm_count)); }),
        shown_column<F>({walk ? "walk_start" : "", "", ""},
                        [](const F& f) { return f.replay.walk_start.empty() ? "-" : f.replay.walk_start; }),
    };
}

/// One launch of a file: a row of the launch-span tables.
struct LaunchRow {
    const UserTimelineComparison* f;
    const LaunchSpanComparison* l;
    double error_percent() const { return percent_error(l->simulated_us, l->measured_us); }
};

/// A row per launch: the text's launch spans, JSON "launch_spans" and each file's table in the report.
const TableColumns<LaunchRow>& launch_columns() {
    using L = LaunchRow;
    static const TableColumns<L> columns{
        text_column<L>({"file", "", ""}, [](const L& r) { return r.f->file; }),
        integer_column<L>({"launch", "launch", "launch"}, [](const L& r) { return r.l->launch; }),
        integer_column<L>({"blocks", "blocks", "blocks"}, [](const L& r) { return r.l->blocks; }),
        decimal_column<L>({"measured_us", "measured us", "measured_us"}, [](const L& r) { return r.l->measured_us; }, 3),
        decimal_column<L>({"simulated_us", "simulated us", "simulated_us"}, [](const L& r) { return r.l->simulated_us; }, 3),
        decimal_column<L>({"error_%", "error %", "error_percent"}, [](const L& r) { return r.error_percent(); }, 2)
            .red_when([](const L& r) { return std::abs(r.error_percent()) > kReplayTargetPercent; }),
    };
    return columns;
}

std::vector<LaunchRow> launch_rows(const UserTimelineComparison& f) {
    std::vector<LaunchRow> rows;
    for (const auto& l : f.replay.launches) rows.push_back({&f, &l});
    return rows;
}

const char* const kMeaning =
    "Replay simulates each block with its measured duration, placed by the GPU's dispatch rules: it checks "
    "dispatch and placement (which SM, when, how many waves), not a work model. A measured duration already "
    "holds the contention of the measured run (memory traffic, the other blocks on its SM), so a replay that "
    "matches says the dispatch model fits this run, not that the simulator would predict these durations; "
    "host gaps between launches (a synchronisation, a copy) are not in the file and make the measured span longer.";

}  // namespace

UserTimelinesView::UserTimelinesView(UserTimelines timelines, std::string dir, const hw::GpuSpec& gpu, std::string policy)
    : timelines_(std::move(timelines)), dir_(std::move(dir)), gpu_(gpu.name), sm_count_(gpu.sm_count),
      policy_(std::move(policy)) {}

void UserTimelinesView::print_text(std::ostream& out) const {
    const auto& files = timelines_.files;
    out << "timeline replay of " << dir_ << " on " << gpu_ << " with " << policy_
        << " (each block with its measured duration)\n";
    for (const auto& f : files) {
        if (f.durations != BlockDurations::slot) continue;
        const auto& i = f.inference;
        out << f.file << ": " << f.out_of_order_stamps << " blocks first stamped > 1 us after a later-dispatched one; "
            << "durations from inferred dispatch (slot; " << f.slots_per_sm << " blocks per SM, refill "
            << fixed(static_cast<double>(f.refill_delay) / 1e3, 1) << " ns): "
            << i.refills << " refills, " << i.late_starts << " blocks first stamped > 1 us after dispatch (longest "
            << fixed(static_cast<double>(i.longest_wait) / 1e6, 3) << " us)";
        if (i.stamp_before_slot > 0) out << ", " << i.stamp_before_slot << " stamped before their inferred slot";
        out << "\n";
    }
    const bool walk = std::any_of(files.begin(), files.end(), [](const auto& f) { return !f.replay.walk_start.empty(); });
    file_columns(sm_count_, walk).print_text(out, files);
    const bool several = std::any_of(files.begin(), files.end(), [](const auto& f) { return f.replay.launches.size() > 1; });
    if (several) {
        out << "\nlaunch spans (first block start to last block end of each launch):\n";
        std::vector<LaunchRow> rows;
        for (const auto& f : files)
            if (f.replay.launches.size() >= 2)
                for (const auto& r : launch_rows(f)) rows.push_back(r);
        launch_columns().print_text(out, rows);
    }
    for (const auto& s : timelines_.skipped) out << "skipped " << s << ": not a timeline (no block,sm,start_ns,end_ns header)\n";
    out << bottom_line(timelines_) << "\n";
}

void UserTimelinesView::add_json(nlohmann::ordered_json& top) const {
    const Totals s = totals_of(timelines_);
    top["files"] = nlohmann::ordered_json::array();
    const auto columns = file_columns(sm_count_, true);
    for (const auto& f : timelines_.files) {
        nlohmann::ordered_json j = columns.json(f);
        j["launch_spans"] = launch_columns().json_array(launch_rows(f));
        j["durations"] = to_string(f.durations);
        j["out_of_order_stamps"] = f.out_of_order_stamps;
        j["slots_per_sm"] = f.slots_per_sm;
        j["slot_inference"] = {{"refills", f.inference.refills},
                               {"late_starts", f.inference.late_starts},
                               {"longest_wait_us", static_cast<double>(f.inference.longest_wait) / 1e6},
                               {"stamp_before_slot", f.inference.stamp_before_slot}};
        top["files"].push_back(std::move(j));
    }
    top["skipped"] = timelines_.skipped;
    top["within_2_percent"] = s.within;
    top["exact_placements"] = s.exact;
    top["worst_error_percent"] = s.worst;
}

std::string UserTimelinesView::report_part() const {
    const auto& files = timelines_.files;
    std::string h = "<h2>Timelines</h2>\n<p>" + charts::escape_xml(bottom_line(timelines_)) + ".</p>\n<p>" +
                    charts::escape_xml(kMeaning) + "</p>\n";
    h += file_columns(sm_count_, false).html(files);
    for (const auto& f : files) {
        const auto& r = f.replay;
        h += "<section id=\"" + charts::escape_xml(f.file) + "\">\n<h2>" + charts::escape_xml(f.file) + "</h2>\n<p>" +
             charts::escape_xml(f.kernel + " on " + f.device + ": " + std::to_string(r.blocks) + " blocks of " +
                                std::to_string(f.threads) + " threads in " + std::to_string(f.launches) +
                                " launches; span " + fixed(r.measured_us, 3) + " us measured, " +
                                fixed(r.simulated_us, 3) + " us simulated (" + fixed(r.error_percent, 2) + "%)") +
             ".</p>\n";
        if (r.launches.size() > 1) {
            h += launch_columns().html(launch_rows(f));
        }
        charts::LineChart chart;
        chart.title = f.file + ": blocks per SM";
        chart.x_label = "SM";
        chart.y_label = "blocks";
        chart.y_from_zero = true;
        chart.height = 300;
        for (const auto* which : {&r.measured_per_sm, &r.simulated_per_sm}) {
            charts::LineSeries s;
            s.name = which == &r.measured_per_sm ? "measured" : "simulated";
            s.markers = true;
            s.steps = true;  // a count per SM: level across each SM, not a slope between neighbours
            if (which == &r.simulated_per_sm) s.dash = "6 3";
            const auto counts = per_sm_array(*which, sm_count_);
            for (std::size_t sm = 0; sm < counts.size(); ++sm)
                s.points.push_back({static_cast<double>(sm), static_cast<double>(counts[sm])});
            chart.series.push_back(std::move(s));
        }
        h += inline_svg(charts::render_svg(chart)) + "\n";
        if (r.measured_blocks.empty() && r.simulated_blocks.empty()) {
            h += "<p>(no per-block timelines kept)</p>\n</section>\n";
            continue;
        }
        const GanttColour colour = f.launches > 1 ? GanttColour::launch : GanttColour::position_on_sm;
        const std::vector<int> sms = sms_of(r.measured_blocks, r.simulated_blocks);
        h += sm_gantt(f.file + ": measured", r.measured_blocks, sms, colour) + "\n";
        h += sm_gantt(f.file + ": simulated", r.simulated_blocks, sms, colour) + "\n</section>\n";
    }
    return h;
}

}  // namespace gpusched::validation
