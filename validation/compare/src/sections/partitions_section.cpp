// The partitions section: green-context timelines replayed in SM partitions (span, blocks per SM) as text, JSON, report.
#include "gpusched/validation/sections/partitions_section.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <regex>

#include "gpusched/hw/partition_spec.h"
#include "gpusched/report/svg_format.h"
#include "gpusched/scheduler/registry.h"
#include "gpusched/support/input_error.h"
#include "gpusched/workloads/replay_timeline.h"
#include "../report_html.h"
#include "grouped_replay.h"

namespace gpusched::validation {

namespace {

constexpr int kThreads = 1024;  // the runner's partition cases: 1024-thread 20 us blocks, 2.5 waves

PartitionCase replay_case(const std::filesystem::path& file, const hw::GpuSpec& gpu, const sim::DispatchPolicy& policy,
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
    c.repeat_span = r.repetition_moved.empty() ? std::string("-")
                                               : fixed(r.repetition_span_min_us, 3) + "-" + fixed(r.repetition_span_max_us, 3);
    c.blocks = r.blocks;
    c.measured_us = r.measured_us;
    c.simulated_us = r.simulated_us;
    c.error_percent = r.error_percent;
    c.blocks_on_other_sm = r.moved;
    c.largest_sm_difference = r.largest_group_difference;
    c.text_windows = launch_windows_text(r);
    std::string h = "<section id=\"partitions-" + report::escape_xml(name) + "\">\n<h3>" + report::escape_xml(name) +
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

std::string sizes_text(const std::vector<int>& sizes) {
    std::string out;
    for (int k : sizes) out += (out.empty() ? "" : "+") + std::to_string(k);
    return out;
}

}  // namespace

PartitionsView::PartitionsView(std::vector<PartitionCase> cases, std::string dir, std::string gpu)
    : cases_(std::move(cases)), dir_(std::move(dir)), gpu_(std::move(gpu)) {}

void PartitionsView::print_text(std::ostream& out) const {
    out << "\npartitions: green-context launches of " << dir_ << " replayed on " << gpu_
        << " in SM partitions (partitions.splits, topology.partition_order)\n";
    report::TextTable table({"case", "partitions", "blocks", "measured_us", "simulated_us", "error_%", "repeats_us",
                             "other_sm", "repeats", "outside"},
                            {false, true, true, true, true, true, true, true, true, true});
    for (const auto& c : cases_)
        table.add_row({c.name, sizes_text(c.partitions), std::to_string(c.blocks), fixed(c.measured_us, 3),
                       fixed(c.simulated_us, 3), fixed(c.error_percent, 2), c.repeat_span,
                       std::to_string(c.blocks_on_other_sm), c.repeats, std::to_string(c.measured_outside)});
    table.print(out);
    for (const auto& c : cases_) out << c.text_windows;
    const int within = cases_within_repetitions(cases_);
    out << "other_sm: blocks to move for the simulated blocks per SM to equal the measured ones; repeats: median/max "
           "of the same count for later repetitions of the case on the GPU (its run-to-run spread), repeats_us their "
           "spans; outside: measured blocks on an SM the model does not give their partition\n"
        << cases_.size() << " cases: " << cases_within_2_percent(cases_) << " within 2% of the measured span (worst "
        << fixed(worst_error_percent(cases_), 2) << "%), " << within << " with blocks per SM within the repetitions' spread\n";
}

void PartitionsView::add_json(nlohmann::ordered_json& top) const {
    nlohmann::ordered_json j;
    j["cases"] = nlohmann::ordered_json::array();
    for (const auto& c : cases_)
        j["cases"].push_back({{"case", c.name}, {"partitions", c.partitions}, {"blocks", c.blocks},
                              {"measured_us", c.measured_us}, {"simulated_us", c.simulated_us},
                              {"error_percent", c.error_percent}, {"blocks_on_other_sm", c.blocks_on_other_sm},
                              {"largest_sm_difference", c.largest_sm_difference},
                              {"repetitions_blocks_on_other_sm", c.repeats},
                              {"within_repetitions", c.within_repeats},
                              {"measured_outside_partition", c.measured_outside}});
    j["within_2_percent"] = cases_within_2_percent(cases_);
    j["worst_error_percent"] = worst_error_percent(cases_);
    j["within_repetitions"] = cases_within_repetitions(cases_);
    top["partitions"] = j;
}

std::string PartitionsView::report_part() const {
    std::string h = "<h2>SM partitions (green contexts)</h2>\n<p>" + std::to_string(cases_.size()) +
                    " launches measured inside green contexts, replayed with their measured durations in the "
                    "modelled partitions (docs/scheduling.md \"SM partitions\"): " +
                    std::to_string(cases_within_2_percent(cases_)) + " within 2% of the measured span (worst " +
                    fixed(worst_error_percent(cases_), 2) + "%).</p>\n<table>\n";
    h += header({"case", "partitions", "blocks", "measured us", "simulated us", "error %", "repetitions' spans us",
                 "blocks on another SM", "repetitions: median / max", "measured blocks outside the partition"});
    for (const auto& c : cases_)
        h += "<tr>" + cell(c.name) + cell(sizes_text(c.partitions)) + cell(std::to_string(c.blocks)) +
             cell(fixed(c.measured_us, 3)) + cell(fixed(c.simulated_us, 3)) +
             cell(fixed(c.error_percent, 2), std::abs(c.error_percent) > 2.0) +
             cell(c.repeat_span) + cell(std::to_string(c.blocks_on_other_sm), c.has_repeats && !c.within_repeats) +
             cell(c.repeats) + cell(std::to_string(c.measured_outside), c.measured_outside > 0) +
             "</tr>\n";
    h += "</table>\n";
    for (const auto& c : cases_) h += c.html;
    return h;
}

std::string PartitionsSection::description() const {
    return "green-context timelines replayed in SM partitions: span, blocks per SM, per-launch start and end";
}

std::unique_ptr<SectionView> PartitionsSection::run(const std::string& data_dir, const SectionSettings& settings) const {
    namespace fs = std::filesystem;
    const fs::path dir = fs::path(data_dir) / "partitions";
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir)) {
        const std::string file = entry.path().filename().string();
        if (file.rfind("timeline_", 0) == 0 && entry.path().extension() == ".csv") files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    const auto policy = scheduler::make_policy(settings.replay_policy);
    std::vector<PartitionCase> cases;
    for (const auto& file : files) cases.push_back(replay_case(file, settings.gpu, *policy, settings.keep_blocks));
    return std::make_unique<PartitionsView>(std::move(cases), dir.string(), settings.gpu.name);
}

}  // namespace gpusched::validation
