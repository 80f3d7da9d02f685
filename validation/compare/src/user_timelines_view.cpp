// The user-timelines view of gpusched validate: replayed timeline files as text, JSON and report (tables, per-SM charts, Gantt).
#include "gpusched/validation/user_timelines_view.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "gpusched/report/line_chart.h"
#include "gpusched/report/svg_format.h"
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
    std::vector<std::string> head{"file", "kernel", "launches", "blocks", "measured_us", "simulated_us", "error_%",
                                  "misplaced", "waves", "start_ks", "blocks/SM_measured", "blocks/SM_simulated"};
    std::vector<bool> right{false, false, true, true, true, true, true, true, true, true, true, true};
    if (walk) head.push_back("walk_start"), right.push_back(true);
    report::TextTable table(head, right);
    for (const auto& f : files) {
        const auto& r = f.replay;
        std::vector<std::string> cells{f.file, f.kernel, std::to_string(f.launches), std::to_string(r.blocks),
                                       fixed(r.measured_us, 3), fixed(r.simulated_us, 3), fixed(r.error_percent, 2),
                                       std::to_string(r.misplaced),
                                       std::to_string(r.measured_waves) + "/" + std::to_string(r.simulated_waves),
                                       fixed(r.start_distance, 3), per_sm_range(r.measured_per_sm, sm_count_),
                                       per_sm_range(r.simulated_per_sm, sm_count_)};
        if (walk) cells.push_back(r.walk_start.empty() ? "-" : r.walk_start);
        table.add_row(cells);
    }
    table.print(out);
    const bool several = std::any_of(files.begin(), files.end(), [](const auto& f) { return f.replay.launches.size() > 1; });
    if (several) {
        out << "\nlaunch spans (first block start to last block end of each launch):\n";
        report::TextTable launches({"file", "launch", "blocks", "measured_us", "simulated_us", "error_%"},
                                   {false, true, true, true, true, true});
        for (const auto& f : files) {
            if (f.replay.launches.size() < 2) continue;
            for (const auto& l : f.replay.launches)
                launches.add_row({f.file, std::to_string(l.launch), std::to_string(l.blocks), fixed(l.measured_us, 3),
                                  fixed(l.simulated_us, 3), fixed(percent_error(l.simulated_us, l.measured_us), 2)});
        }
        launches.print(out);
    }
    for (const auto& s : timelines_.skipped) out << "skipped " << s << ": not a timeline (no block,sm,start_ns,end_ns header)\n";
    out << bottom_line(timelines_) << "\n";
}

void UserTimelinesView::add_json(nlohmann::ordered_json& top) const {
    const Totals s = totals_of(timelines_);
    top["files"] = nlohmann::ordered_json::array();
    for (const auto& f : timelines_.files) {
        const auto& r = f.replay;
        nlohmann::ordered_json launches = nlohmann::ordered_json::array();
        for (const auto& l : r.launches)
            launches.push_back({{"launch", l.launch}, {"blocks", l.blocks}, {"measured_us", l.measured_us},
                                {"simulated_us", l.simulated_us},
                                {"error_percent", percent_error(l.simulated_us, l.measured_us)}});
        top["files"].push_back({{"file", f.file}, {"kernel", f.kernel}, {"device", f.device}, {"launches", f.launches},
                                {"blocks", r.blocks}, {"threads", f.threads}, {"regs", f.regs}, {"smem", f.smem},
                                {"measured_us", r.measured_us}, {"simulated_us", r.simulated_us},
                                {"error_percent", r.error_percent}, {"misplaced_blocks", r.misplaced},
                                {"measured_waves", r.measured_waves}, {"simulated_waves", r.simulated_waves},
                                {"start_ks_distance", r.start_distance}, {"walk_start", r.walk_start},
                                {"measured_blocks_per_sm", per_sm_array(r.measured_per_sm, sm_count_)},
                                {"simulated_blocks_per_sm", per_sm_array(r.simulated_per_sm, sm_count_)},
                                {"launch_spans", launches}, {"durations", to_string(f.durations)},
                                {"out_of_order_stamps", f.out_of_order_stamps},
                                {"slots_per_sm", f.slots_per_sm},
                                {"slot_inference", {{"refills", f.inference.refills},
                                                    {"late_starts", f.inference.late_starts},
                                                    {"longest_wait_us", static_cast<double>(f.inference.longest_wait) / 1e6},
                                                    {"stamp_before_slot", f.inference.stamp_before_slot}}}});
    }
    top["skipped"] = timelines_.skipped;
    top["within_2_percent"] = s.within;
    top["exact_placements"] = s.exact;
    top["worst_error_percent"] = s.worst;
}

std::string UserTimelinesView::report_part() const {
    const auto& files = timelines_.files;
    std::string h = "<h2>Timelines</h2>\n<p>" + report::escape_xml(bottom_line(timelines_)) + ".</p>\n<p>" +
                    report::escape_xml(kMeaning) + "</p>\n<table>\n";
    h += header({"file", "kernel", "launches", "blocks", "measured us", "simulated us", "error %", "blocks on another SM",
                 "waves measured / simulated", "start-time KS distance", "blocks per SM measured",
                 "blocks per SM simulated"});
    for (const auto& f : files) {
        const auto& r = f.replay;
        h += "<tr><td><a href=\"#" + report::escape_xml(f.file) + "\">" + report::escape_xml(f.file) + "</a></td>" +
             cell(f.kernel) + cell(std::to_string(f.launches)) + cell(std::to_string(r.blocks)) +
             cell(fixed(r.measured_us, 3)) + cell(fixed(r.simulated_us, 3)) +
             cell(fixed(r.error_percent, 2), std::abs(r.error_percent) > kReplayTargetPercent) +
             cell(std::to_string(r.misplaced)) +
             cell(std::to_string(r.measured_waves) + " / " + std::to_string(r.simulated_waves)) +
             cell(fixed(r.start_distance, 3)) + cell(per_sm_range(r.measured_per_sm, sm_count_)) +
             cell(per_sm_range(r.simulated_per_sm, sm_count_)) + "</tr>\n";
    }
    h += "</table>\n";
    for (const auto& f : files) {
        const auto& r = f.replay;
        h += "<section id=\"" + report::escape_xml(f.file) + "\">\n<h2>" + report::escape_xml(f.file) + "</h2>\n<p>" +
             report::escape_xml(f.kernel + " on " + f.device + ": " + std::to_string(r.blocks) + " blocks of " +
                                std::to_string(f.threads) + " threads in " + std::to_string(f.launches) +
                                " launches; span " + fixed(r.measured_us, 3) + " us measured, " +
                                fixed(r.simulated_us, 3) + " us simulated (" + fixed(r.error_percent, 2) + "%)") +
             ".</p>\n";
        if (r.launches.size() > 1) {
            h += "<table>\n" + header({"launch", "blocks", "measured us", "simulated us", "error %"});
            for (const auto& l : r.launches) {
                const double e = percent_error(l.simulated_us, l.measured_us);
                h += "<tr>" + cell(std::to_string(l.launch)) + cell(std::to_string(l.blocks)) +
                     cell(fixed(l.measured_us, 3)) + cell(fixed(l.simulated_us, 3)) +
                     cell(fixed(e, 2), std::abs(e) > kReplayTargetPercent) + "</tr>\n";
            }
            h += "</table>\n";
        }
        report::LineChart chart;
        chart.title = f.file + ": blocks per SM";
        chart.x_label = "SM";
        chart.y_label = "blocks";
        chart.y_from_zero = true;
        chart.height = 300;
        for (const auto* which : {&r.measured_per_sm, &r.simulated_per_sm}) {
            report::LineSeries s;
            s.name = which == &r.measured_per_sm ? "measured" : "simulated";
            s.markers = true;
            s.steps = true;  // a count per SM: level across each SM, not a slope between neighbours
            if (which == &r.simulated_per_sm) s.dash = "6 3";
            const auto counts = per_sm_array(*which, sm_count_);
            for (std::size_t sm = 0; sm < counts.size(); ++sm)
                s.points.push_back({static_cast<double>(sm), static_cast<double>(counts[sm])});
            chart.series.push_back(std::move(s));
        }
        h += inline_svg(report::render_svg(chart)) + "\n";
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
