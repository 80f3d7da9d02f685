// write_summary_text: the summary as aligned tables, identical launches grouped into one row.
#include <algorithm>
#include <map>
#include <tuple>

#include "gpusched/sim/output/summary_collector.h"
#include "summary_format.h"

namespace gpusched::sim {

namespace {

using summary_format::fixed3;
using summary_format::us3;
using summary_format::write_rows;
using summary_format::write_table;

std::string binds_cell(const KernelSummary& k) { return k.end ? binding_name(k.binds) : "-"; }

void write_every_launch(std::ostream& out, const RunSummary& s) {
    write_rows(
        out, s.kernel_count() + 1,
        [&s](std::size_t i, std::vector<std::string>& cells) {
            if (i == 0) {
                cells = {"launch", "kernel", "stream", "blocks", "threads", "blocks/SM", "waves", "ready_us", "start_us",
                         "end_us", "binds"};
                return;
            }
            const KernelSummary k = s.kernel(i - 1);
            cells = {std::to_string(k.launch), s.kernel_name(k), std::to_string(k.stream), std::to_string(k.blocks),
                     std::to_string(k.threads_per_block), std::to_string(k.blocks_per_sm), std::to_string(k.waves),
                     us3(k.ready), us3(k.start), us3(k.end), binds_cell(k)};
        },
        {false, true, false, false, false, false, false, false, false, false, true});
}

/// Launches alike in kernel, stream, shape (blocks, threads, occupancy) and binding.
struct LaunchGroup {
    std::size_t first = 0;
    std::size_t count = 0;
    std::vector<Time> durations;  ///< end - start of its completed launches
};

/// The grouped table; false (writing nothing) when no two launches are alike.
bool write_grouped_launches(std::ostream& out, const RunSummary& s) {
    // Shapes differ in their terms too (launches of one kernel with other work): group their alike part.
    std::map<std::tuple<std::uint32_t, int, std::uint64_t, int, int, std::uint64_t>, std::uint32_t> alike;
    std::vector<std::uint32_t> shape_group(s.kernel_shapes.size());
    for (std::size_t i = 0; i < s.kernel_shapes.size(); ++i) {
        const KernelShape& k = s.kernel_shapes[i];
        const auto key = std::make_tuple(k.name_index, k.stream, k.blocks, k.threads_per_block, k.blocks_per_sm, k.waves);
        shape_group[i] = alike.try_emplace(key, static_cast<std::uint32_t>(alike.size())).first->second;
    }
    std::map<std::tuple<std::uint32_t, int>, std::size_t> index;  // (alike shapes, binding or -1) -> group
    std::vector<LaunchGroup> groups;
    for (std::size_t i = 0; i < s.kernel_count(); ++i) {
        const KernelTimes& t = s.kernel_times[i];
        const bool done = t.end != kUnreachedTime && t.start != kUnreachedTime;
        const auto key = std::make_tuple(shape_group.at(t.shape), done ? static_cast<int>(t.binds) : -1);
        const auto [it, added] = index.try_emplace(key, groups.size());
        if (added) groups.push_back({i, 0, {}});
        LaunchGroup& g = groups[it->second];
        ++g.count;
        if (done) g.durations.push_back(t.end - t.start);
    }
    if (groups.size() == s.kernel_count()) return false;
    for (LaunchGroup& g : groups) std::sort(g.durations.begin(), g.durations.end());
    write_rows(
        out, groups.size() + 1,
        [&s, &groups](std::size_t i, std::vector<std::string>& cells) {
            if (i == 0) {
                cells = {"first", "launches", "kernel", "stream", "blocks", "threads", "blocks/SM", "waves", "min_us",
                         "median_us", "max_us", "binds"};
                return;
            }
            const LaunchGroup& g = groups[i - 1];
            const KernelSummary k = s.kernel(g.first);
            const auto at = [&g](std::size_t j) { return g.durations.empty() ? std::nullopt : std::optional<Time>(g.durations[j]); };
            const std::size_t n = g.durations.size();
            cells = {std::to_string(g.first), std::to_string(g.count), s.kernel_name(k), std::to_string(k.stream),
                     std::to_string(k.blocks), std::to_string(k.threads_per_block), std::to_string(k.blocks_per_sm),
                     std::to_string(k.waves), us3(at(0)), us3(at(n == 0 ? 0 : (n - 1) / 2)), us3(at(n == 0 ? 0 : n - 1)),
                     binds_cell(k)};
        },
        {false, false, true, false, false, false, false, false, false, false, false, true});
    out << "  " << s.kernel_count() << " launches in " << groups.size() << (groups.size() == 1 ? " row" : " rows")
        << ": identical launches grouped, their times end - start\n";
    return true;
}

}  // namespace

void write_summary_text(std::ostream& out, const RunSummary& s, const SummaryTextOptions& options) {
    out << "gpusched summary\n";
    std::vector<std::vector<std::string>> header = {
        {"", "gpu", s.gpu + " (" + s.gpu_name + "), cc " + s.compute_capability + ", " + std::to_string(s.sm_count) + " SMs"},
        {"", "policy", s.policy},
        {"", "execution", s.execution},
        {"", "workload", s.application},
        {"", "issue", s.issue == "host-calls"      ? "host calls, one per host_launch_interval_ns"
                      : s.issue == "host-timeline" ? "the workload's host threads (host: their calls, gaps and syncs)"
                               : s.issue == "graph" ? "a CUDA graph (graph_kernel_launch_ns)" : "queued"}};
    for (const auto& note : s.notes) header.push_back({"", "note", note});
    write_table(out, header, {true, true, true});
    out << '\n';

    if (options.all_launches || !write_grouped_launches(out, s)) write_every_launch(out, s);
    out << '\n';
    if (s.copy_count() > 0) {
        write_rows(
            out, s.copy_count() + 1,
            [&s](std::size_t i, std::vector<std::string>& cells) {
                if (i == 0) {
                    cells = {"operation", "copy", "stream", "bytes", "memory", "engine", "ready_us", "start_us", "end_us"};
                    return;
                }
                const CopySummary c = s.copy(i - 1);
                cells = {std::to_string(c.operation), copy_direction_name(c.direction), std::to_string(c.stream), std::to_string(c.bytes),
                         c.pinned ? "pinned" : "pageable", std::to_string(c.engine), us3(c.ready), us3(c.start),
                         us3(c.end)};
            },
            {false, true, false, false, true, false, false, false, false});
        out << '\n';
    }

    std::vector<std::vector<std::string>> totals;
    totals.push_back({"", "makespan", fixed3(s.makespan, 1000000) + " us"});
    totals.push_back({"", "blocks", std::to_string(s.total_blocks) + " total"});
    if (!s.per_sm_blocks.empty()) {
        const auto [lo, hi] = std::minmax_element(s.per_sm_blocks.begin(), s.per_sm_blocks.end());
        totals.push_back({"", "blocks per SM", "min " + std::to_string(*lo) + " / mean " +
                                                   fixed3(s.total_blocks, s.per_sm_blocks.size()) + " / max " +
                                                   std::to_string(*hi)});
    }
    write_table(out, totals, {true, true, true});
}

}  // namespace gpusched::sim
