// APSP block timelines measured on the H100 against the simulation: whole span, launch spans, block durations, launch gaps, waves.
#include "experiments/apsp_timelines/comparison.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <tuple>

#include "gpusched/support/input_error.h"
#include "gpusched/support/yaml_fields.h"
#include "gpusched/scheduler/registry.h"
#include "gpusched/sim/simulation.h"
#include "experiments/placement/comparison.h"
#include "gpusched/workloads/kernel_spec.h"
#include "block_recorder.h"
#include "numeric_csv.h"

namespace gpusched::validation {

namespace {

namespace fs = std::filesystem;

double us(Time t) { return static_cast<double>(t) / 1e6; }

/// The blocks of `blocks` grouped by launch index 0..launches-1 (others are dropped).
std::vector<std::vector<MeasuredBlock>> by_launch(const std::vector<MeasuredBlock>& blocks, int launches) {
    std::vector<std::vector<MeasuredBlock>> out(static_cast<std::size_t>(launches));
    for (const auto& b : blocks)
        if (b.launch < out.size()) out[b.launch].push_back(b);
    return out;
}

/// A positive integer metadata value of `t`; InputError naming the file and key otherwise.
std::int64_t meta_integer(const MeasuredTimeline& t, const std::string& key, std::int64_t max) {
    const auto v = parse_integer(t.meta(key));
    if (!v || *v < 1 || *v > max)
        throw InputError(t.path + ": metadata '# " + key + "=' must be an integer 1.." + std::to_string(max) +
                         ", got '" + t.meta(key) + "'");
    return *v;
}

/// The value of `key=` in the spec ("apsp-minplus:n=90,block=8"); InputError when absent or not in 1..2^20.
int spec_size(const std::string& path, const workloads::KernelSpec& spec, const std::string& key) {
    const auto text = spec.get(key);
    const auto v = text ? parse_integer(*text) : std::nullopt;
    if (v && *v >= 1 && *v <= (1 << 20)) return static_cast<int>(*v);
    throw InputError(path + ": workload_spec '" + spec.as_written() + "' needs an integer " + key + "=1..2^20");
}

/// The timeline simulated as the runner ran it: Init, then the spec's launches, all queued.
std::pair<std::vector<MeasuredBlock>, int> simulate(const ApspTimelineCase& c, const workloads::KernelSpec& spec,
                                                    const hw::GpuSpec& gpu, const sim::DispatchPolicy& policy) {
    workloads::KernelSpec init("apsp-fw", "kernel spec #1");
    init.set("n", std::to_string(c.n)).set("block", std::to_string(c.block)).set("steps", "1").set("p_min", "0");
    const workloads::Application app = workloads::build_application({init, spec});
    sim::Simulation simulation(gpu, app, policy, "shared");
    simulation.memoise(false);
    BlockRecorder recorder;
    simulation.observe(recorder);
    simulation.run();
    const int per_sm = simulation.occupancy().size() > 1 ? simulation.occupancy()[1].blocks_per_sm : 0;
    return {measured_blocks(recorder), per_sm};
}

ApspTimelineCase compare_case(const fs::path& file, const hw::GpuSpec& gpu, const sim::DispatchPolicy& policy,
                              bool keep_blocks) {
    MeasuredTimeline m = read_measured_timeline(file.string());
    ApspTimelineCase c;
    c.name = file.stem().string();
    c.workload_spec = m.meta("workload_spec");
    const std::string kernel = workloads::KernelSpec::name_of(c.workload_spec);
    if (kernel != "apsp-minplus" && kernel != "apsp-fw")
        throw InputError(m.path + ": workload_spec must be an apsp-minplus or apsp-fw spec, got '" + c.workload_spec + "'");
    // Named in messages as the second spec of the simulated application (after the Init launch).
    const workloads::KernelSpec spec = workloads::KernelSpec::parse(c.workload_spec, "kernel spec #2");
    c.n = spec_size(m.path, spec, "n");
    c.block = spec_size(m.path, spec, "block");
    c.launches = static_cast<int>(meta_integer(m, "launches", 1000000));
    if (c.launches < 2) throw InputError(m.path + ": '# launches=' must count Init and at least one APSP launch");
    c.blocks_per_launch = static_cast<std::uint64_t>(meta_integer(m, "blocks_per_launch", std::int64_t{1} << 40));
    if (const auto it = m.metadata.find("overhead_percent"); it != m.metadata.end())
        c.overhead_percent = parse_number(it->second).value_or(0.0);
    const auto measured = by_launch(m.blocks, c.launches);
    for (std::size_t l = 0; l < measured.size(); ++l)
        if (measured[l].size() != c.blocks_per_launch)
            throw InputError(m.path + ": launch " + std::to_string(l) + " has " + std::to_string(measured[l].size()) +
                             " blocks, expected blocks_per_launch=" + std::to_string(c.blocks_per_launch));
    if (m.blocks.size() != c.blocks_per_launch * static_cast<std::uint64_t>(c.launches))
        throw InputError(m.path + ": blocks with a launch index >= launches=" + std::to_string(c.launches));
    auto [simulated_blocks, per_sm] = simulate(c, spec, gpu, policy);
    c.blocks_per_sm = per_sm;
    const auto simulated = by_launch(simulated_blocks, c.launches);
    c.blocks_match = simulated_blocks.size() == m.blocks.size();
    for (std::size_t l = 0; l < simulated.size(); ++l) {
        c.blocks_match = c.blocks_match && simulated[l].size() == measured[l].size();
        c.misplaced += misplaced_blocks(measured[l], simulated[l]);
    }
    c.measured = apsp_timeline_stats(m.blocks, c.launches, per_sm);
    c.simulated = apsp_timeline_stats(simulated_blocks, c.launches, per_sm);
    c.span_error_percent = percent_error(c.simulated.span_us, c.measured.span_us);
    c.launch_span_error_percent = percent_error(c.simulated.launch_span_median_us, c.measured.launch_span_median_us);
    c.block_error_percent = percent_error(c.simulated.block_median_us, c.measured.block_median_us);
    c.gap_error_percent = percent_error(c.simulated.gap_median_us, c.measured.gap_median_us);
    if (keep_blocks) {
        c.measured_blocks = std::move(m.blocks);
        c.simulated_blocks = std::move(simulated_blocks);
    }
    return c;
}

}  // namespace

ApspTimelineStats apsp_timeline_stats(const std::vector<MeasuredBlock>& blocks, int launches, int blocks_per_sm) {
    ApspTimelineStats s;
    s.blocks = blocks.size();
    const auto [first, last] = span_of(blocks);
    s.span_us = us(last - first);
    std::map<int, int> all_sms;
    for (const auto& b : blocks) ++all_sms[b.sm];
    s.sms = static_cast<int>(all_sms.size());
    const auto launch = by_launch(blocks, launches);
    std::vector<double> spans, durations, gaps;
    for (std::size_t l = 0; l < launch.size(); ++l) {
        if (launch[l].empty()) continue;
        const auto [start, end] = span_of(launch[l]);
        if (l + 1 < launch.size() && !launch[l + 1].empty()) {
            const Time next = span_of(launch[l + 1]).first;
            gaps.push_back(next >= end ? us(next - end) : -us(end - next));
        }
        if (l == 0) continue;
        spans.push_back(us(end - start));
        std::map<int, int> per_sm;
        for (const auto& b : launch[l]) {
            durations.push_back(us(b.end - b.start));
            ++per_sm[b.sm];
        }
        int most = 0;
        for (const auto& [sm, count] : per_sm) most = std::max(most, count);
        if (blocks_per_sm > 0) s.waves = std::max(s.waves, (most + blocks_per_sm - 1) / blocks_per_sm);
    }
    s.launch_span_median_us = median_of(spans);
    s.block_median_us = median_of(durations);
    s.gap_median_us = median_of(gaps);
    if (!gaps.empty()) {
        s.gap_min_us = *std::min_element(gaps.begin(), gaps.end());
        s.gap_max_us = *std::max_element(gaps.begin(), gaps.end());
    }
    return s;
}

ApspTimelineComparison validate_apsp_timelines(const std::string& dir, const hw::GpuSpec& gpu,
                                               const std::string& policy_name, bool keep_blocks) {
    if (!fs::is_directory(dir)) throw InputError(dir + ": not a directory of APSP timelines");
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir))
        if (entry.is_regular_file() && entry.path().extension() == ".csv" && entry.path().filename() != "summary.csv")
            files.push_back(entry.path());
    if (files.empty()) throw InputError(dir + ": no APSP timeline CSVs");
    std::sort(files.begin(), files.end());
    const auto policy = scheduler::make_policy(policy_name);
    ApspTimelineComparison out;
    for (const auto& f : files) out.cases.push_back(compare_case(f, gpu, *policy, keep_blocks));
    std::sort(out.cases.begin(), out.cases.end(), [](const ApspTimelineCase& a, const ApspTimelineCase& b) {
        const bool fa = workloads::KernelSpec::name_of(a.workload_spec) == "apsp-fw",
                   fb = workloads::KernelSpec::name_of(b.workload_spec) == "apsp-fw";
        return std::tie(fa, a.n, a.block, a.name) < std::tie(fb, b.n, b.block, b.name);
    });
    for (const auto& c : out.cases) {
        out.blocks_match = out.blocks_match && c.blocks_match;
        out.total_misplaced += c.misplaced;
    }
    return out;
}

}  // namespace gpusched::validation
