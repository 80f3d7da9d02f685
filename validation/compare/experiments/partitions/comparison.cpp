// The partitions comparison: green-context timelines replayed in SM partitions (span, blocks per SM, per-launch windows).
#include "experiments/partitions/comparison.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <regex>

#include "gpusched/hw/partition_spec.h"
#include "gpusched/charts/svg_format.h"
#include "gpusched/scheduler/registry.h"
#include "gpusched/support/input_error.h"
#include "gpusched/workloads/replay_timeline.h"
#include "report_html.h"
#include "grouped_replay.h"

namespace gpusched::validation {

namespace {

constexpr int kThreads = 1024;  // the runner's partition cases: 1024-thread 20 us blocks, 2.5 waves

PartitionCase replay_partition_case(const std::filesystem::path& file, const hw::GpuSpec& gpu, const sim::DispatchPolicy& policy,
                          bool charts) {
    const std::string name = file.stem().string().substr(std::string("timeline_").size());
    static const std::regex pattern("(partition|side_by_side)([0-9]+)");
    std::smatch m;
    if (!std::regex_match(name, m, pattern))
        throw InputError(file.string() + ": expected a case name partitionK or side_by_sideK (K SMs per green "
                                         "context), got '" + name + "'");
    std::vector<std::string> kernels;
    const std::vector<MeasuredBlock> measured = read_kernel_timeline(file.string(), kernels);
    workloads::Application app = workloads::load_replay_timeline(file.string(), kThreads, 0, 0);
    PartitionCase c;
    c.name = name;
    const int k = std::stoi(m[2].str());
    c.partitions.assign(m[1].str() == "partition" ? 1 : kernels.size(), k);
    app.partitions = c.partitions;
    app.host_issue = workloads::HostIssue::calls;  // one host thread issued the launches, one API call apart
    app.partitions_where = file.string();
    std::vector<workloads::KernelLaunch> launches(app.launches.begin(), app.launches.end());
    app.streams.clear();
    for (std::size_t i = 0; i < launches.size(); ++i) {
        launches[i].stream = static_cast<int>(i);
        workloads::StreamConfig stream;
        stream.id = static_cast<int>(i);
        stream.partition = static_cast<int>(std::min(i, c.partitions.size() - 1));
        app.streams.push_back(stream);
    }
    app.launches = workloads::LaunchList(std::move(launches));
    const auto sets = hw::partition_sms(gpu, c.partitions, file.string());
    for (const auto& b : measured) {
        const auto& set = sets[std::min(static_cast<std::size_t>(b.launch), sets.size() - 1)];
        c.measured_outside += std::find(set.begin(), set.end(), b.sm) == set.end() ? 1 : 0;
    }
    GroupedReplay r = replay_grouped(name, measured, kernels, app, gpu, policy, charts, [](int sm) { return sm; });
    add_repetitions(r, (file.parent_path() / "repetitions.csv").string(), [](int sm) { return sm; });
    c.repeats = repetition_text(r);
    c.within_repeats = within_repetitions(r);
    c.has_repeats = !r.repetition_moved.empty();
    c.repeat_span = repetition_span_text(r);
    c.blocks = r.blocks;
    c.measured_us = r.measured_us;
    c.simulated_us = r.simulated_us;
    c.error_percent = r.error_percent;
    c.blocks_on_other_sm = r.moved;
    c.largest_sm_difference = r.largest_group_difference;
    c.text_windows = launch_windows_text(r);
    std::string h = "<section id=\"partitions-" + charts::escape_xml(name) + "\">\n<h3>" + charts::escape_xml(name) +
                    "</h3>\n<p>" + std::to_string(c.blocks) + " blocks in " + std::to_string(c.partitions.size()) +
                    " partition(s) of " + std::to_string(k) + " SMs; span " + fixed(c.measured_us, 3) +
                    " us measured, " + fixed(c.simulated_us, 3) + " us simulated (" + fixed(c.error_percent, 2) +
                    "%); " + std::to_string(c.blocks_on_other_sm) + " blocks on another SM; " +
                    std::to_string(c.measured_outside) + " measured blocks outside the modelled partition.</p>\n";
    h += launch_windows_html(r);
    if (charts) {
        const std::vector<int> sms = sms_of(r.measured_blocks, r.simulated_blocks);
        h += sm_gantt(name + ": measured, per SM", r.measured_blocks, sms, GanttColour::launch) + "\n";
        h += sm_gantt(name + ": simulated, per SM", r.simulated_blocks, sms, GanttColour::launch) + "\n";
    }
    c.html = h + "</section>\n";
    return c;
}

}  // namespace

std::vector<PartitionCase> validate_partitions(const std::string& dir, const hw::GpuSpec& gpu,
                                               const std::string& policy_name, bool charts) {
    const auto policy = scheduler::make_policy(policy_name);
    std::vector<PartitionCase> cases;
    for (const auto& file : timeline_files(dir)) cases.push_back(replay_partition_case(file, gpu, *policy, charts));
    return cases;
}

}  // namespace gpusched::validation
