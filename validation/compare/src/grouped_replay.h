// GroupedReplay: a measured timeline of cluster or partition launches replayed, compared per launch and per SM group.
#pragma once

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "gpusched/hw/gpu_spec.h"
#include "gpusched/charts/text_table.h"
#include "gpusched/validation/table_columns.h"
#include "gpusched/sim/dispatch_policy.h"
#include "gpusched/validation/measured_timeline.h"
#include "gpusched/workloads/application.h"

namespace gpusched::validation {

/// One launch's first block start and last block end, relative to its case's first start (us).
struct LaunchWindow {
    std::string kernel;
    std::size_t blocks = 0;
    double measured_start_us = 0, measured_end_us = 0;
    double simulated_start_us = 0, simulated_end_us = 0;
};

/// A replayed case: spans, per-launch windows, blocks per group (a GPC for clusters, an SM for
/// partitions) and the blocks that would have to move for the simulated counts to equal the
/// measured ones (sum of |differences| / 2).
struct GroupedReplay {
    std::string name;
    std::size_t blocks = 0;
    double measured_us = 0, simulated_us = 0, error_percent = 0;
    std::vector<LaunchWindow> launches;
    std::map<int, int> measured_per_group, simulated_per_group;
    int moved = 0;
    int largest_group_difference = 0;            ///< the largest |measured - simulated| of one group
    /// The hardware's own spread (the directory's repetitions.csv, when present): for each later
    /// repetition of the case, the blocks to move between its per-group counts and the measured
    /// timeline's; and the repetitions' shortest and longest span.
    std::vector<int> repetition_moved;
    double repetition_span_min_us = 0, repetition_span_max_us = 0;
    std::vector<MeasuredBlock> measured_blocks;  ///< launch = the launch's index in the case (kept on request)
    std::vector<MeasuredBlock> simulated_blocks;
};

/// The case files of a cluster or partition experiment: `dir`/timeline_*.csv, sorted by name.
std::vector<std::filesystem::path> timeline_files(const std::filesystem::path& dir);

/// The runner's timeline `path` (columns kernel, block, sm, start_ns, end_ns): its blocks, launch
/// = index of the kernel in order of first appearance (the order of load_replay_timeline).
std::vector<MeasuredBlock> read_kernel_timeline(const std::string& path, std::vector<std::string>& kernels);

/// Replays `app` (built from the same timeline) with the fixed model on `gpu` and compares;
/// `group_of(sm)` maps an SM to its group.
template <class GroupOf>
GroupedReplay replay_grouped(const std::string& name, const std::vector<MeasuredBlock>& measured,
                             const std::vector<std::string>& kernels, const workloads::Application& app,
                             const hw::GpuSpec& gpu, const sim::DispatchPolicy& policy, bool keep_blocks,
                             GroupOf&& group_of);

/// Reads `path` (columns case, rep, span_ns, launch, sm, blocks) for `r.name` when the file
/// exists and fills r's repetition fields against r.measured_per_group (groups by `group_of`).
void add_repetitions(GroupedReplay& r, const std::string& path, const std::function<int(int)>& group_of);
/// "median/max" of r.repetition_moved, or "-".
std::string repetition_text(const GroupedReplay& r);
/// "shortest-longest" of the repetitions' spans (us, 3 decimals), or "-" without repetitions.
std::string repetition_span_text(const GroupedReplay& r);
/// Whether r.moved is at most the largest repetition distance (false without repetitions).
bool within_repetitions(const GroupedReplay& r);

/// The per-launch windows as a text table; the per-group counts as "group measured/simulated" pairs.
std::string launch_windows_text(const GroupedReplay& r);
/// HTML: a per-launch start/end table.
std::string launch_windows_html(const GroupedReplay& r);
/// HTML: a Gantt chart with one row per group (`labels[g]` for group g of `group_of`), each
/// block a bar on its SM's group, coloured by its launch; times from the timeline's first start.
std::string group_gantt(const std::string& title, const std::vector<MeasuredBlock>& blocks,
                        const std::vector<int>& group_of_sm, const std::vector<std::string>& labels);

/// Shared part of replay_grouped: runs the simulation and fills everything but the groups.
GroupedReplay replay_blocks(const std::string& name, const std::vector<MeasuredBlock>& measured,
                            const std::vector<std::string>& kernels, const workloads::Application& app,
                            const hw::GpuSpec& gpu, const sim::DispatchPolicy& policy,
                            std::vector<MeasuredBlock>& simulated);

template <class GroupOf>
GroupedReplay replay_grouped(const std::string& name, const std::vector<MeasuredBlock>& measured,
                             const std::vector<std::string>& kernels, const workloads::Application& app,
                             const hw::GpuSpec& gpu, const sim::DispatchPolicy& policy, bool keep_blocks,
                             GroupOf&& group_of) {
    std::vector<MeasuredBlock> simulated;
    GroupedReplay r = replay_blocks(name, measured, kernels, app, gpu, policy, simulated);
    for (const auto& b : measured) ++r.measured_per_group[group_of(b.sm)];
    for (const auto& b : simulated) ++r.simulated_per_group[group_of(b.sm)];
    std::map<int, int> diff = r.measured_per_group;
    for (const auto& [g, n] : r.simulated_per_group) diff[g] -= n;
    int total = 0;
    for (const auto& [g, d] : diff) {
        total += d < 0 ? -d : d;
        r.largest_group_difference = std::max(r.largest_group_difference, d < 0 ? -d : d);
    }
    r.moved = total / 2;
    if (keep_blocks) {
        r.measured_blocks = measured;
        r.simulated_blocks = std::move(simulated);
    }
    return r;
}

/// Statistics shared by the cluster and partition sections over their cases (each with
/// `error_percent` and `within_repeats`).
template <class Case>
int cases_within_2_percent(const std::vector<Case>& cases) {
    int n = 0;
    for (const auto& c : cases) n += std::abs(c.error_percent) <= 2.0 ? 1 : 0;
    return n;
}
template <class Case>
double worst_error_percent(const std::vector<Case>& cases) {
    double w = 0;
    for (const auto& c : cases) w = std::max(w, std::abs(c.error_percent));
    return w;
}
template <class Case>
int cases_within_repetitions(const std::vector<Case>& cases) {
    int n = 0;
    for (const auto& c : cases) n += c.within_repeats ? 1 : 0;
    return n;
}

/// The columns a cluster and a partition case share, in their tables' order: blocks, the measured and
/// simulated spans, the error (red beyond 2%) and the repetitions' spans.
template <class Case>
std::vector<Column<Case>> replayed_span_columns() {
    return {integer_column<Case>({"blocks", "blocks", "blocks"}, &Case::blocks),
            decimal_column<Case>({"measured_us", "measured us", "measured_us"}, &Case::measured_us, 3),
            decimal_column<Case>({"simulated_us", "simulated us", "simulated_us"}, &Case::simulated_us, 3),
            decimal_column<Case>({"error_%", "error %", "error_percent"}, &Case::error_percent, 2)
                .red_when([](const Case& c) { return std::abs(c.error_percent) > 2.0; }),
            shown_column<Case>({"repeats_us", "repetitions' spans us", ""}, [](const Case& c) { return c.repeat_span; })};
}

/// A cluster or partition section's JSON: its "cases" (rows of `columns`) and how many are within 2% of the
/// measured span, the worst error and how many are within the repetitions' spread.
template <class Case>
nlohmann::ordered_json replayed_cases_json(const TableColumns<Case>& columns, const std::vector<Case>& cases) {
    nlohmann::ordered_json j;
    j["cases"] = columns.json_array(cases);
    j["within_2_percent"] = cases_within_2_percent(cases);
    j["worst_error_percent"] = worst_error_percent(cases);
    j["within_repetitions"] = cases_within_repetitions(cases);
    return j;
}

/// A cluster or partition section's report part: `heading`, a paragraph ("N " + `what` + the cases within
/// 2%), the table of `columns` and each case's own part (`html`).
template <class Case>
std::string replayed_cases_html(const std::string& heading, const std::string& what, const TableColumns<Case>& columns,
                                const std::vector<Case>& cases) {
    std::string h = "<h2>" + heading + "</h2>\n<p>" + std::to_string(cases.size()) + what + ": " +
                    std::to_string(cases_within_2_percent(cases)) + " within 2% of the measured span (worst " +
                    charts::fixed(worst_error_percent(cases), 2) + "%).</p>\n";
    h += columns.html(cases);
    for (const auto& c : cases) h += c.html;
    return h;
}

}  // namespace gpusched::validation
