// The GPU numbers a run depends on, and notes for those a rule gives.
#include "gpusched/workloads/ruled_numbers.h"

#include <algorithm>

#include "gpusched/hw/gpu_spec_provenance.h"
#include "gpusched/workloads/gpu_bound_work.h"
#include "gpusched/workloads/spec_numbers.h"

namespace gpusched::workloads {

namespace {

void add(std::vector<GpuNumberUse>& out, const GpuNumberUse& use) {
    if (std::none_of(out.begin(), out.end(), [&](const GpuNumberUse& u) { return u.key == use.key; })) out.push_back(use);
}

void add_key(std::vector<GpuNumberUse>& out, const hw::GpuSpec& gpu, const char* key) {
    if (const auto value = hw::gpu_number(gpu, key)) add(out, {key, *value, hw::gpu_rule(gpu, key).value_or("")});
}

}  // namespace

std::vector<GpuNumberUse> run_gpu_numbers(const Application& app, const hw::GpuSpec& gpu, bool shared_execution) {
    std::vector<GpuNumberUse> out;
    for (const char* key : {"overheads.kernel_launch_ns", "overheads.block_dispatch_latency_ns",
                            "overheads.block_dispatch_interval_ns", "overheads.sm_block_launch_ns",
                            "overheads.sm_warp_launch_ns", "overheads.block_completion_interval_ns"})
        add_key(out, gpu, key);
    if (app.host_issue == HostIssue::calls) add_key(out, gpu, "overheads.host_launch_interval_ns");
    if (app.host_issue == HostIssue::graph) {
        add_key(out, gpu, "overheads.graph_kernel_launch_ns");
        add_key(out, gpu, "overheads.graph_launch_per_pending_kernel_ns");
    }
    add_key(out, gpu, "overheads.kernel_start_interval_ns");
    for (const auto& op : app.operations)
        if (op.kind == Operation::Kind::copy) {
            add_key(out, gpu, op.copy.pinned ? "host_link.bandwidth_gbps" : "host_link.pageable_bandwidth_gbps");
            add_key(out, gpu, "host_link.latency_ns");
        }
    if (!shared_execution) return out;
    for (const char* key : {"memory.dram_bandwidth_gbps", "memory.l2_bandwidth_gbps", "execution.l1_wavefronts_per_cycle"})
        add_key(out, gpu, key);
    for (const char* key : {"execution.issue_model", "execution.l1_model"})
        if (const auto rule = hw::gpu_rule(gpu, key)) add(out, {key, 0, *rule});
    // The keys a generator reads do not depend on the launch's size beyond L2 fits; a bound on the
    // launches looked at keeps a million-launch application's notes cheap.
    constexpr std::size_t kLaunchesLookedAt = 10000;
    for (std::size_t i = 0; i < std::min(app.launches.size(), kLaunchesLookedAt); ++i) {
        const KernelLaunch& launch = app.launches[i];
        const auto* bound = dynamic_cast<const GpuBoundWork*>(launch.work.get());
        if (bound == nullptr) continue;
        for (const auto& use : bound->derivation(gpu_context(launch, gpu)).gpu_numbers) add(out, use);
    }
    return out;
}

std::vector<std::string> ruled_number_notes(const Application& app, const hw::GpuSpec& gpu, bool shared_execution) {
    const std::vector<GpuNumberUse> uses = run_gpu_numbers(app, gpu, shared_execution);
    std::vector<std::string> rules;
    for (const auto& use : uses)
        if (!use.rule.empty() && std::find(rules.begin(), rules.end(), use.rule) == rules.end()) rules.push_back(use.rule);
    std::vector<std::string> notes;
    for (const auto& rule : rules) {
        std::string keys;
        for (const auto& use : uses) {
            if (use.rule != rule) continue;
            keys += (keys.empty() ? "" : ", ") + use.key;
            if (use.key != "execution.issue_model" && use.key != "execution.l1_model")
                keys += " " + format_spec_number(use.value);
        }
        notes.push_back("GPU '" + gpu.name + "' uses a rule, not data: " + keys + " (" + rule + ")");
    }
    const hw::StreamPriorityRange priorities = gpu.stream_priorities();
    const bool numbered = std::any_of(app.streams.begin(), app.streams.end(), [](const StreamConfig& s) {
        return !s.priority.greatest && s.priority.value != 0;
    });
    if (!priorities.stated && priorities.greatest < 0 && numbered)
        notes.push_back("GPU '" + gpu.name + "' uses a rule, not data: streams.priority_range " + priorities.text() +
                        " (CUDA documents stream priorities from compute capability 3.5 on, not how many levels a "
                        "GPU has: two, 0 and -1, assumed where its spec states none)");
    if (app.host_issue == HostIssue::graph && !gpu.graph_kernel_launch_ns)
        notes.push_back("GPU '" + gpu.name + "' has no overheads.graph_kernel_launch_ns: the CUDA graph's kernels take "
                        "overheads.kernel_launch_ns, a stream's launch overhead");
    if (!app.host.empty() && !gpu.launch_queue_depth)
        notes.push_back("GPU '" + gpu.name + "' has no overheads.launch_queue_depth: the host's launch queues are unbounded "
                        "(a launch call never waits for room)");
    return notes;
}

std::optional<std::string> ruled_default_note(const hw::GpuSpec& gpu, const std::string& key, const std::string& value) {
    const auto rule = hw::gpu_rule(gpu, "defaults." + key);
    if (!rule) return std::nullopt;
    return "GPU '" + gpu.name + "' default " + key + " " + value + " is a rule, not data (" + *rule + ")";
}

}  // namespace gpusched::workloads
