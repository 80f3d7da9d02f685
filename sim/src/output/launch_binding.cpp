// LaunchBindings: each launch's ExecutionTerms and the term that binds it, cached per distinct work and shape.
#include "gpusched/sim/output/launch_binding.h"

#include <algorithm>

#include "gpusched/sim/engine/spec_time.h"
#include "gpusched/workloads/cycle_latency.h"
#include "gpusched/workloads/gpu_bound_work.h"

namespace gpusched::sim {

const char* binding_name(Binding binding) {
    switch (binding) {
        case Binding::duration: return "duration";
        case Binding::issue: return "issue";
        case Binding::latency: return "latency";
        case Binding::occupancy: return "occupancy";
        case Binding::l1: return "l1";
        case Binding::l2: return "l2";
        case Binding::dram: return "dram";
        case Binding::launch: return "launch";
        case Binding::host: return "host";
    }
    return "?";
}

const char* binding_meaning(Binding binding) {
    switch (binding) {
        case Binding::duration: return "its blocks run the durations the work model gives (fixed model): no GPU resource changes them";
        case Binding::issue: return "the SMs' issue slots: more SMs or a faster clock help, more bandwidth does not";
        case Binding::latency: return "the warps' latency floor (their dependent instructions and memory latencies), not issue slots or bandwidth: lower latencies help, more bandwidth or issue slots do not";
        case Binding::occupancy: return "the warps' latency floor while blocks wait for room: more resident blocks per SM (or more SMs) help, more bandwidth does not";
        case Binding::l1: return "the SMs' L1 data path: more L1 wavefronts per cycle help";
        case Binding::l2: return "the L2 bandwidth: more L2 bandwidth helps";
        case Binding::dram: return "device-memory bandwidth: more DRAM bandwidth helps";
        case Binding::launch: return "it runs shorter than its launch overhead: fusing launches helps, a faster GPU does not";
        case Binding::host: return "the host issues launches more slowly than they run: fewer, larger launches help";
    }
    return "?";
}

namespace {

LaunchTerms compute(const hw::GpuSpec& gpu, const workloads::KernelLaunch& launch, const hw::OccupancyResult& occ,
                    const std::string& execution) {
    LaunchTerms t;
    if (execution != "shared" || !launch.work || !gpu.clock_mhz || launch.blocks() == 0) return t;
    const auto work = workloads::work_on_gpu(launch, gpu);
    const auto warp = workloads::warp_work_at_clock(*work, 0, *gpu.clock_mhz);
    if (!warp) return t;
    const auto sms = static_cast<std::uint64_t>(std::max(gpu.sm_count, 1));
    const auto per_sm = static_cast<std::uint64_t>(std::max(occ.blocks_per_sm, 1));
    const std::uint64_t resident = std::min(per_sm, (launch.blocks() + sms - 1) / sms);
    const int active = std::clamp(work->active_warps(0, occ.warps_per_block), 0, occ.warps_per_block);
    t.warps_per_sm = static_cast<int>(resident) * active;
    t.busy_sms = static_cast<int>(std::min(sms, launch.blocks()));
    const ExecutionTerms e = SharedExecution::terms(gpu, *warp, t.warps_per_sm, t.busy_sms);
    t.terms = e;
    Time most = e.issue;
    t.binds = Binding::issue;
    for (const auto& [value, binding] : {std::pair{e.latency, Binding::latency}, std::pair{e.l1, Binding::l1},
                                         std::pair{e.l2, Binding::l2}, std::pair{e.dram, Binding::dram}})
        if (value > most) {
            most = value;
            t.binds = binding;
        }
    const bool waits = launch.blocks() > per_sm * sms;  // more than one wave
    if (t.binds == Binding::latency && waits && occ.warps_per_sm < gpu.max_warps_per_sm) t.binds = Binding::occupancy;
    return t;
}

}  // namespace

LaunchBindings::LaunchBindings(const RunInfo& info) {
    if (!info.app) return;
    if (!info.gpu) {  // nothing to compute terms with: every launch `duration`
        distinct_.assign(1, LaunchTerms{});
        of_launch_.assign(info.app->launches.size(), 0);
        return;
    }
    const hw::GpuSpec& gpu = *info.gpu;
    const auto& launches = info.app->launches;
    launch_overhead_ = kernel_launch_ps(gpu, info.app->host_issue);
    if (info.app->host_issue == workloads::HostIssue::calls) host_interval_ = overhead_ps(gpu.host_launch_interval_ns);
    // Launches share works and shapes: one computation per (work, blocks, occupancy).
    std::map<std::tuple<const void*, std::uint64_t, int, int>, std::uint32_t> seen;
    std::map<decltype(LaunchTerms{}.key()), std::uint32_t> index;
    of_launch_.reserve(launches.size());
    for (std::size_t i = 0; i < launches.size(); ++i) {
        const hw::OccupancyResult occ = i < info.occupancy.size() ? info.occupancy[i] : hw::OccupancyResult{};
        const auto key = std::make_tuple(static_cast<const void*>(launches[i].work.get()), launches[i].blocks(),
                                         occ.blocks_per_sm, occ.warps_per_block);
        auto [it, fresh] = seen.try_emplace(key, 0);
        if (fresh) {
            const LaunchTerms terms = compute(gpu, launches[i], occ, info.execution);
            const auto [at, added] = index.try_emplace(terms.key(), static_cast<std::uint32_t>(distinct_.size()));
            if (added) distinct_.push_back(terms);
            it->second = at->second;
        }
        of_launch_.push_back(it->second);
    }
}

Binding LaunchBindings::after_run(std::size_t launch, Time start, Time end) const {
    const Time ran = end >= start ? end - start : 0;
    if (host_interval_ > 0 && ran < host_interval_) return Binding::host;
    if (launch_overhead_ > 0 && ran < launch_overhead_) return Binding::launch;
    return of(launch).binds;
}

}  // namespace gpusched::sim
