// The clusters comparison: cluster-launch timelines replayed with cluster dispatch (span, blocks per GPC, active clusters).
#include "experiments/clusters/comparison.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <regex>
#include <set>
#include <tuple>

#include "gpusched/hw/cluster_occupancy.h"
#include "gpusched/hw/occupancy.h"
#include "gpusched/charts/svg_format.h"
#include "gpusched/scheduler/registry.h"
#include "gpusched/support/input_error.h"
#include "experiments/placement/comparison.h"
#include "gpusched/workloads/replay_timeline.h"
#include "report_html.h"
#include "grouped_replay.h"

namespace gpusched::validation {

namespace {

/// Most blocks resident at once in `blocks` (an end at the instant of a start frees first).
int peak_resident(const std::vector<MeasuredBlock>& blocks) {
    std::vector<std::pair<Time, int>> events;
    for (const auto& b : blocks) {
        events.emplace_back(b.start, 1);
        events.emplace_back(b.end, -1);
    }
    std::sort(events.begin(), events.end());
    int now = 0, most = 0;
    for (const auto& [t, d] : events) most = std::max(most, now += d);
    return most;
}

/// `gpu` set to start where the measured launch did: clusters of 2 or more at the measured
/// groups (cluster_start_of); clusters of one block, which follow the policy's order, at the
/// measured dispatch walk when the policy is `walk` (walk_start_of). The start as text.
std::string start_as_measured(hw::GpuSpec& gpu, const std::vector<MeasuredBlock>& measured, int cluster_size,
                              const std::string& policy) {
    if (cluster_size == 1) {
        if (policy != "walk" || !gpu.dispatch_walk) return "-";
        if (const auto start = walk_start_of(measured, *gpu.dispatch_walk)) {
            gpu.dispatch_walk->start_row = start->first;
            gpu.dispatch_walk->lead_start = start->second;
        }
        return "walk " + std::to_string(gpu.dispatch_walk->start_row) + ":" + std::to_string(gpu.dispatch_walk->lead_start);
    }
    if (!gpu.clusters) return "-";
    const ClusterStart start = cluster_start_of(measured, *gpu.clusters, cluster_size);
    if (start.group) gpu.clusters->start_group = start.group;
    if (start.small_group) gpu.clusters->start_small_group = start.small_group;
    return (start.group ? std::to_string(*start.group) : std::string("-")) + "/" +
           (start.small_group ? std::to_string(*start.small_group) : std::string("-"));
}

ClusterCase replay_cluster_case(const std::filesystem::path& file, const hw::GpuSpec& gpu, const sim::DispatchPolicy& policy,
                        bool charts) {
    const std::string stem = file.stem().string();
    const std::string name = stem.substr(std::string("timeline_").size());
    static const std::regex pattern("c([0-9]+)_t([0-9]+)(_s([0-9]+))?_w[0-9.]+");
    std::smatch m;
    if (!std::regex_match(name, m, pattern))
        throw InputError(file.string() + ": expected a case name cC_tT[_sKIB]_wW (cluster size, threads, shared "
                                         "memory in KiB, waves), got '" + name + "'");
    ClusterCase c;
    c.name = name;
    c.cluster_size = std::stoi(m[1].str());
    const int threads = std::stoi(m[2].str());
    const std::int64_t smem = m[4].matched ? std::stoll(m[4].str()) * 1024 : 0;
    std::vector<std::string> kernels;
    const std::vector<MeasuredBlock> measured = read_kernel_timeline(file.string(), kernels);
    workloads::Application app = workloads::load_replay_timeline(file.string(), threads, 0, smem);
    std::vector<workloads::KernelLaunch> launches(app.launches.begin(), app.launches.end());
    for (auto& launch : launches) {
        launch.cluster = hw::ClusterShape{c.cluster_size, 1, 1};
        launch.cluster_nonportable = gpu.clusters && c.cluster_size > gpu.clusters->max_size;
    }
    app.launches = workloads::LaunchList(std::move(launches));
    std::vector<int> group_of(static_cast<std::size_t>(gpu.sm_count), -1);
    std::vector<std::string> labels;
    if (gpu.clusters)
        for (std::size_t g = 0; g < gpu.clusters->groups.size(); ++g) {
            for (int sm : gpu.clusters->groups[g]) group_of[static_cast<std::size_t>(sm)] = static_cast<int>(g);
            labels.push_back("group " + std::to_string(g));
        }
    const auto group = [&](int sm) {
        return sm >= 0 && sm < static_cast<int>(group_of.size()) ? group_of[static_cast<std::size_t>(sm)] : -1;
    };
    hw::GpuSpec case_gpu = gpu;
    c.start = start_as_measured(case_gpu, measured, c.cluster_size, policy.name());
    GroupedReplay r = replay_grouped(name, measured, kernels, app, case_gpu, policy, true, group);
    add_repetitions(r, (file.parent_path() / "repetitions.csv").string(), group);
    c.repeats = repetition_text(r);
    c.within_repeats = within_repetitions(r);
    c.has_repeats = !r.repetition_moved.empty();
    c.repeat_span = repetition_span_text(r);
    c.blocks = r.blocks;
    c.measured_us = r.measured_us;
    c.simulated_us = r.simulated_us;
    c.error_percent = r.error_percent;
    c.blocks_in_other_gpc = r.moved;
    c.largest_gpc_difference = r.largest_group_difference;
    const auto meta = read_measured_timeline(file.string()).metadata;
    if (const auto it = meta.find("max_active_clusters"); it != meta.end()) c.measured_active = std::stoi(it->second);
    const hw::OccupancyResult occ = hw::compute_occupancy(gpu, app.launches.front().occupancy_request());
    c.computed_active = hw::compute_cluster_occupancy(gpu, occ, *app.launches.front().cluster,
                                                      app.launches.front().cluster_nonportable, "cluster")
                            .max_active_clusters;
    c.simulated_peak = peak_resident(r.simulated_blocks) / c.cluster_size;
    std::tie(c.first_wave_clusters, c.first_wave_same) =
        first_wave_agreement(r.measured_blocks, r.simulated_blocks, c.cluster_size);
    c.text_windows = launch_windows_text(r);
    std::string h = "<section id=\"clusters-" + charts::escape_xml(name) + "\">\n<h3>" + charts::escape_xml(name) +
                    "</h3>\n<p>" + std::to_string(c.blocks) + " blocks in clusters of " +
                    std::to_string(c.cluster_size) + "; span " + fixed(c.measured_us, 3) + " us measured, " +
                    fixed(c.simulated_us, 3) + " us simulated (" + fixed(c.error_percent, 2) + "%); " +
                    std::to_string(c.blocks_in_other_gpc) + " blocks in another GPC group.</p>\n";
    h += launch_windows_html(r);
    h += "<table>\n" + header({"group", "blocks measured", "blocks simulated"});
    for (std::size_t g = 0; g < labels.size(); ++g) {
        const auto count = [&](const std::map<int, int>& per) {
            const auto it = per.find(static_cast<int>(g));
            return it == per.end() ? 0 : it->second;
        };
        h += row({labels[g], std::to_string(count(r.measured_per_group)), std::to_string(count(r.simulated_per_group))});
    }
    h += "</table>\n";
    if (!charts) {
        c.html = h + "</section>\n";
        return c;
    }
    h += group_gantt(name + ": measured, per GPC group", r.measured_blocks, group_of, labels) + "\n";
    h += group_gantt(name + ": simulated, per GPC group", r.simulated_blocks, group_of, labels) + "\n";
    const std::vector<int> sms = sms_of(r.measured_blocks, r.simulated_blocks);
    h += sm_gantt(name + ": measured, per SM", r.measured_blocks, sms) + "\n";
    h += sm_gantt(name + ": simulated, per SM", r.simulated_blocks, sms) + "\n</section>\n";
    c.html = std::move(h);
    return c;
}

}  // namespace

ClusterStart cluster_start_of(const std::vector<MeasuredBlock>& blocks, const hw::ClusterSpec& spec, int cluster_size) {
    std::map<int, int> group_of;
    for (std::size_t g = 0; g < spec.groups.size(); ++g)
        for (int sm : spec.groups[g]) group_of[sm] = static_cast<int>(g);
    ClusterStart start;
    std::uint64_t first_gpc = 0, first_small = 0;
    for (const auto& b : blocks) {
        const auto it = group_of.find(b.sm);
        if (b.launch != 0 || it == group_of.end()) continue;
        const std::uint64_t cluster = b.block / static_cast<std::uint64_t>(std::max(1, cluster_size));
        const bool small = hw::is_small_cluster_group(spec, static_cast<std::size_t>(it->second));
        std::optional<int>& slot = small ? start.small_group : start.group;
        std::uint64_t& first = small ? first_small : first_gpc;
        if (!slot || cluster < first) {
            slot = it->second;
            first = cluster;
        }
    }
    return start;
}

std::pair<int, int> first_wave_agreement(const std::vector<MeasuredBlock>& measured,
                                         const std::vector<MeasuredBlock>& simulated, int cluster_size) {
    const auto c = static_cast<std::uint64_t>(std::max(1, cluster_size));
    Time first_end = std::numeric_limits<Time>::max();
    for (const auto& b : measured) first_end = std::min(first_end, b.end);
    std::map<std::uint64_t, std::set<int>> measured_sms, simulated_sms;
    std::set<std::uint64_t> later;  // clusters with a block that started after the first end
    for (const auto& b : measured) {
        if (b.launch != 0) continue;
        measured_sms[b.block / c].insert(b.sm);
        if (b.start >= first_end) later.insert(b.block / c);
    }
    for (const auto& b : simulated)
        if (b.launch == 0) simulated_sms[b.block / c].insert(b.sm);
    int clusters = 0, same = 0;
    for (const auto& [cluster, sms] : measured_sms) {
        if (later.count(cluster) != 0) continue;
        ++clusters;
        const auto it = simulated_sms.find(cluster);
        same += it != simulated_sms.end() && it->second == sms ? 1 : 0;
    }
    return {clusters, same};
}

std::vector<ClusterCase> validate_clusters(const std::string& dir, const hw::GpuSpec& gpu, const std::string& policy_name,
                                           bool charts) {
    const auto policy = scheduler::make_policy(policy_name);
    std::vector<ClusterCase> cases;
    for (const auto& file : timeline_files(dir)) cases.push_back(replay_cluster_case(file, gpu, *policy, charts));
    return cases;
}

}  // namespace gpusched::validation
