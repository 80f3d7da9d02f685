// Test fixtures for engine/policy tests: small GPUs, hand-made work, and recording observers.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/scheduler/registry.h"
#include "gpusched/sim/engine.h"
#include "gpusched/workloads/application.h"

namespace gpusched::test {

/// A GPU file's text `yaml` (hw::to_yaml) with `line` added to its `execution:` section, just
/// before its `  issue_width:` line (for tests of one execution key in a GPU file).
inline std::string with_execution_line(const std::string& yaml, const std::string& line) {
    std::string text = yaml;
    const auto at = text.find("  issue_width:");
    if (at == std::string::npos) throw std::logic_error("with_execution_line: no '  issue_width:' line");
    text.insert(at, line + "\n");
    return text;
}

/// The H100 preset shrunk to `sms` SMs (all limits unchanged, no overheads, no host launch or kernel start interval,
/// issue_model share, l1_model cap).
inline hw::GpuSpec small_gpu(int sms) {
    hw::GpuSpec g = hw::resolve_gpu("h100");
    g.sm_count = sms;
    g.sm_order.clear();
    g.dispatch_walk.reset();
    g.completion_sweep.reset();
    g.kernel_launch_ns.reset();
    g.block_dispatch_latency_ns.reset();
    g.block_dispatch_interval_ns.reset();
    g.sm_block_launch_ns.reset();
    g.sm_warp_launch_ns.reset();
    g.block_completion_interval_ns.reset();
    g.host_launch_interval_ns.reset();
    g.graph_kernel_launch_ns.reset();
    g.graph_launch_per_pending_kernel_ns.reset();
    g.kernel_start_interval_ns.reset();
    g.issue_model = hw::GpuSpec::IssueModel::share;  // the hand-derived `shared` tests use equal shares
    g.l1_model = hw::GpuSpec::L1Model::cap;          // and the L1 path's cap
    return g;
}

/// small_gpu(4) with 500 ns from a kernel's start (issued, its stream free) to its first block: the host-timeline tests' GPU.
inline hw::GpuSpec host_timeline_gpu() {
    hw::GpuSpec g = small_gpu(4);
    g.kernel_launch_ns = 500;
    return g;
}

/// small_gpu(sms) issuing C = 4 slots per cycle at 1000 MHz (4 slots per ns), with no DRAM, L2 or L1 limit:
/// the hand-derived `shared` tests' GPU.
inline hw::GpuSpec unlimited_issue_gpu(int sms) {
    hw::GpuSpec g = small_gpu(sms);
    g.dram_bandwidth_gbps.reset();
    g.l2_bandwidth_gbps.reset();
    g.l1_wavefronts_per_cycle.reset();
    g.warp_schedulers_per_sm = 4;
    g.issue_width = 1;
    g.clock_mhz = 1000;
    return g;
}

/// The H100 preset without dispatch overheads: all 132 SMs in its measured order, its cluster groups
/// kept (every block of a first wave starts at 0).
inline hw::GpuSpec h100_without_overheads() {
    hw::GpuSpec g = small_gpu(132);
    g.sm_order = hw::resolve_gpu("h100").sm_order;
    return g;
}

/// small_gpu(sms) with a dispatch walk for policy `walk`: lead = the last SM (when sms > 1),
/// rows = pairs of the others in id order (also the quota groups), the lead due after 2 rows
/// and then every 3.
inline hw::GpuSpec small_gpu_with_walk(int sms) {
    hw::GpuSpec g = small_gpu(sms);
    hw::DispatchWalk walk;
    const int rows_end = sms > 1 ? sms - 1 : sms;
    if (sms > 1) walk.lead = {sms - 1};
    for (int sm = 0; sm < rows_end; sm += 2) {
        walk.rows.push_back({sm});
        if (sm + 1 < rows_end) walk.rows.back().push_back(sm + 1);
    }
    walk.groups = walk.rows;
    walk.lead_first_gap = 2;
    walk.lead_gap = 3;
    g.dispatch_walk = walk;
    return g;
}

/// A completion sweep over `sms` SMs (>= 3): SMs 0 and 1 with 1.5 takes per visit (1, 2, 1,
/// ...), then all the others with 1.
inline hw::CompletionSweep two_visit_sweep(int sms) {
    hw::CompletionSweep sweep;
    sweep.visits.push_back({{0, 1}, 1.5});
    sweep.visits.push_back({{}, 1});
    for (int sm = 2; sm < sms; ++sm) sweep.visits.back().sms.push_back(sm);
    return sweep;
}

/// Work given by two functions of the block index.
class LambdaWork final : public workloads::BlockWork {
public:
    LambdaWork(std::function<Time(std::uint64_t)> duration, std::function<int(std::uint64_t, int)> warps = {},
               std::function<workloads::WarpWork(std::uint64_t)> warp_work = {})
        : duration_(std::move(duration)), warps_(std::move(warps)), warp_work_(std::move(warp_work)) {}
    Time duration(std::uint64_t b) const override { return duration_(b); }
    int active_warps(std::uint64_t b, int w) const override { return warps_ ? warps_(b, w) : w; }
    std::optional<workloads::WarpWork> warp_work(std::uint64_t b) const override {
        if (!warp_work_) return std::nullopt;
        return warp_work_(b);
    }
    std::string describe() const override { return "test work"; }

private:
    std::function<Time(std::uint64_t)> duration_;
    std::function<int(std::uint64_t, int)> warps_;
    std::function<workloads::WarpWork(std::uint64_t)> warp_work_;
};

inline workloads::KernelLaunch launch(std::uint64_t blocks, int threads, Time duration, int stream = 0) {
    workloads::KernelLaunch k;
    k.name = "k";
    k.grid.x = static_cast<std::uint32_t>(blocks);
    k.block.x = static_cast<std::uint32_t>(threads);
    k.stream = stream;
    k.work = std::make_shared<LambdaWork>([duration](std::uint64_t) { return duration; });
    return k;
}

/// Records every block and each SM's block list in dispatch order.
class Recorder final : public sim::SimObserver {
public:
    std::vector<sim::BlockRecord> blocks;  // in completion order
    std::map<int, std::vector<std::uint64_t>> per_sm;  // dispatch order
    std::vector<Time> ready;
    Time makespan = 0;
    void on_kernel_ready(std::size_t launch, Time when) override {
        if (ready.size() <= launch) ready.resize(launch + 1);
        ready[launch] = when;
    }
    void on_block_dispatched(const sim::BlockRecord& b) override { per_sm[b.sm].push_back(b.block); }
    void on_block_completed(const sim::BlockRecord& b) override { blocks.push_back(b); }
    void on_end(Time t) override { makespan = t; }
};

/// Runs `app` on `gpu` with `policy` and returns the recorder.
inline Recorder run(const hw::GpuSpec& gpu, const workloads::Application& app, const std::string& policy,
                    sim::SimObserver* extra = nullptr, const std::string& execution = "fixed") {
    auto p = scheduler::make_policy(policy);
    sim::Engine engine(gpu, app, *p, execution);
    Recorder r;
    engine.add_observer(r);
    if (extra) engine.add_observer(*extra);
    engine.run();
    return r;
}

/// Durations drawn from `values` distinct multiples of 1 us by a seeded generator per block
/// (few values: many blocks end at the same instant).
inline workloads::KernelLaunch seeded_launch(std::uint64_t blocks, int threads, int values, std::uint32_t seed,
                                            int stream) {
    workloads::KernelLaunch k = launch(blocks, threads, 0, stream);
    k.work = std::make_shared<LambdaWork>([values, seed](std::uint64_t b) {
        std::mt19937_64 g(seed * 1000003ULL + b);
        return static_cast<Time>(1 + g() % static_cast<std::uint64_t>(values)) * 1'000'000;
    });
    return k;
}

/// A host timeline's launch call of operation `op`, `gap` after the previous call's end, taking `cpu`.
inline workloads::HostCall host_launch(std::size_t op, Time gap, Time cpu) {
    workloads::HostCall c;
    c.ops = {op};
    c.gap = gap;
    c.cpu = cpu;
    return c;
}

/// A host timeline's sync call of `stream` (-1: the device), `gap` after the previous call's end, `cpu` after its work.
inline workloads::HostCall host_sync(int stream, Time gap, Time cpu) {
    workloads::HostCall c;
    c.kind = workloads::HostCall::Kind::sync;
    c.stream = stream;
    c.gap = gap;
    c.cpu = cpu;
    return c;
}

inline workloads::Application app_of(std::vector<workloads::KernelLaunch> launches) {
    workloads::Application a;
    a.launches = std::move(launches);
    return a;
}

}  // namespace gpusched::test
