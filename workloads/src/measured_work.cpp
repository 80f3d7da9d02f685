// The closed-form rule that turns a measured launch duration (and optional totals) into per-warp work.
#include "gpusched/workloads/measured_work.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "gpusched/hw/occupancy.h"
#include "gpusched/hw/roofline.h"
#include "gpusched/hw/tensor_clock.h"
#include "gpusched/support/input_error.h"

namespace gpusched::workloads {

namespace {

/// Mean-value analysis of one warp scheduler of the `queue` issue model (docs/scheduling.md):
/// `warps` warps, each alternating one issue of `service` ps and a think time of `think` ps; the
/// scheduler's throughput in issues per ps (sim/issue_queue.cpp's mva_throughput).
double mva(int warps, double think, double service) {
    double queue = 0, throughput = 0;
    for (int n = 1; n <= warps; ++n) {
        const double response = service * (1 + queue);
        throughput = n / (response + think);
        queue = throughput * response;
    }
    return throughput;
}

/// One SM of the `queue` issue model running `count` identical blocks, `resident` at a time, each
/// `warps` warps of `slots` issue slots with think time `think` (the rules of sim/issue_queue.cpp: a
/// block's warps take the lowest free warp slots, slot i on scheduler i mod `schedulers`; per
/// scheduler the blocks are served oldest first, each seeing the service time stretched by the
/// older blocks' utilisation). A block that ends is replaced at once by the next, which takes its
/// slots and is the youngest. Returns the time until the last block ends, in ps.
double sm_queue_time(std::uint64_t count, int resident, int warps, int schedulers, double slots, double think,
                     double service) {
    struct Block {
        int position;
        double remaining;
    };
    std::vector<std::vector<int>> per_scheduler(static_cast<std::size_t>(resident), std::vector<int>(schedulers, 0));
    for (int b = 0; b < resident; ++b)
        for (int w = 0; w < warps; ++w) ++per_scheduler[b][static_cast<std::size_t>((b * warps + w) % schedulers)];
    std::vector<Block> alive;  // oldest first
    std::uint64_t started = 0;
    for (int b = 0; b < resident && started < count; ++b, ++started) alive.push_back({b, slots});
    std::vector<double> rate(alive.size());
    double now = 0;
    while (!alive.empty()) {
        rate.assign(alive.size(), -1);
        for (int p = 0; p < schedulers; ++p) {
            double used = 0;
            for (std::size_t i = 0; i < alive.size(); ++i) {
                const int k = per_scheduler[static_cast<std::size_t>(alive[i].position)][static_cast<std::size_t>(p)];
                if (k == 0) continue;
                double per_warp = 0;
                if (used < 1) {
                    const double x = mva(k, think, service / (1 - used));
                    per_warp = x / k;
                    used = std::min(1.0, used + x * service);
                }
                rate[i] = rate[i] < 0 ? per_warp : std::min(rate[i], per_warp);
            }
        }
        double step = std::numeric_limits<double>::infinity();
        for (std::size_t i = 0; i < alive.size(); ++i) {
            // A starved block creeps, as in the engine: at 10^-6 of a scheduler's rate, or its own latency-bound rate where slower.
            rate[i] = std::max(rate[i], think > 0 ? std::min(1e-6 / service, 1 / (think + service)) : 1e-6 / service);
            step = std::min(step, alive[i].remaining / rate[i]);
        }
        now += step;
        std::vector<Block> next;
        std::vector<int> freed;
        for (std::size_t i = 0; i < alive.size(); ++i) {
            alive[i].remaining -= rate[i] * step;
            if (alive[i].remaining > slots * 1e-12) next.push_back(alive[i]);
            else freed.push_back(alive[i].position);
        }
        for (int position : freed)
            if (started < count) {
                next.push_back({position, slots});
                ++started;
            }
        alive = std::move(next);
    }
    return now;
}

/// sm_queue_time for `count` blocks, emulating at most six rounds of `resident` blocks: a longer
/// launch is emulated without its middle rounds, each of which then adds the pace of the last
/// emulated round (a long launch is periodic after its first rounds; its partial last round stays).
double sm_queue_time_extended(std::uint64_t count, int resident, int warps, int schedulers, double slots, double think,
                              double service) {
    const auto round = static_cast<std::uint64_t>(resident);
    const std::uint64_t cap = 6 * round;
    if (count <= cap) return sm_queue_time(count, resident, warps, schedulers, slots, think, service);
    const std::uint64_t skipped = (count - cap + round - 1) / round;  // whole rounds left out
    const std::uint64_t kept = count - skipped * round;                 // in (cap - round, cap]
    const double at = sm_queue_time(kept, resident, warps, schedulers, slots, think, service);
    const double before = sm_queue_time(kept - round, resident, warps, schedulers, slots, think, service);
    return at + static_cast<double>(skipped) * (at - before);
}

double ns_to_ps(std::optional<double> ns) { return ns.value_or(0) * 1000; }

}  // namespace

std::string measured_term_name(MeasuredTerm term) {
    switch (term) {
        case MeasuredTerm::latency: return "latency";
        case MeasuredTerm::issue: return "issue";
        case MeasuredTerm::dram: return "dram";
        case MeasuredTerm::l2: return "l2";
    }
    return "latency";
}

MeasuredWorkFit fit_measured_work(const MeasuredLaunch& m, const hw::GpuSpec& g, const KernelLaunch& launch,
                                  const std::string& key) {
    if (!g.clock_mhz)
        throw InputError(key + ": GPU '" + g.name + "' has no execution.clock_mhz, which the measured rule needs");
    hw::OccupancyResult occ;
    try {
        occ = hw::compute_occupancy(g, launch.occupancy_request());
    } catch (const InputError& e) {
        throw InputError(key + ": the launch does not fit the measured GPU: " + e.what());
    }
    MeasuredWorkFit fit;
    const double f = *g.clock_mhz;
    const double sms = g.sm_count;
    const double blocks = static_cast<double>(launch.blocks());
    const int w = occ.warps_per_block;
    const int o = std::max(1, occ.blocks_per_sm);
    fit.blocks_per_sm = o;
    fit.warps_per_block = w;
    const double resident = o * sms;
    fit.waves = (launch.blocks() + static_cast<std::uint64_t>(resident) - 1) / static_cast<std::uint64_t>(resident);
    const int o1 = static_cast<int>(std::min<double>(o, std::ceil(blocks / sms)));

    // The reference GPU's overheads: the first wave's launch pipeline on an SM, a dispatch latency per
    // wave boundary, and one completion-channel backlog when a full wave ends at once.
    const double pipeline = (o1 - 1) * (ns_to_ps(g.sm_block_launch_ns) + w * ns_to_ps(g.sm_warp_launch_ns));
    const double waves = static_cast<double>(fit.waves);
    const double refills = (waves - 1) * ns_to_ps(g.block_dispatch_latency_ns) +
                           (fit.waves > 1 ? ns_to_ps(g.block_completion_interval_ns) * std::min(resident, blocks - resident) : 0);
    const double overhead = std::min(pipeline + refills, static_cast<double>(m.measured));
    fit.overhead = static_cast<Time>(std::llround(overhead));
    const double wave = (static_cast<double>(m.measured) - overhead) / waves;
    fit.wave_time = static_cast<Time>(std::llround(wave));

    const double warps = blocks * w;
    WarpWork& warp = fit.warp;
    warp.issue_slots = m.instructions ? std::max(*m.instructions / warps, 1e-9) : 1;
    warp.dram_bytes = m.dram_bytes.value_or(0) / warps;
    warp.l2_bytes = m.l2_bytes ? std::max(0.0, *m.l2_bytes - m.dram_bytes.value_or(0)) / warps : 0;

    // One full wave's issue, DRAM and L2 times on the reference GPU.
    const int schedulers = std::max(1, g.warp_schedulers_per_sm);
    const int per_scheduler = (o1 * w + schedulers - 1) / schedulers;
    const double service = 1e6 / (g.issue_width * f);  // ps per issue of one scheduler
    const bool queue = g.issue_model == hw::GpuSpec::IssueModel::queue;
    const double issue = m.instructions ? (queue ? per_scheduler * warp.issue_slots * service
                                                 : o1 * w * warp.issue_slots / (g.issue_slots_per_cycle() * f * 1e-6))
                                        : 0;
    // The bandwidth terms: the whole launch's bytes spread over its waves (bandwidth does not come in
    // waves: a partial last wave moves fewer bytes, and the next wave's blocks use what the last ones free).
    // DRAM: all bytes at the GPU's bandwidth, or the busiest SM's (ceil(B / S) blocks) at its per-SM cap.
    const double launch_warps = blocks * w;
    fit.reference_dram_ps = launch_dram_time_ps(g, launch.blocks(), w, warp.dram_bytes);
    const double dram = fit.reference_dram_ps / waves;
    const double l2 = g.l2_bandwidth_gbps
                          ? launch_warps * (warp.dram_bytes + warp.l2_bytes) / (*g.l2_bandwidth_gbps * 1e-3) / waves
                          : 0;
    const double explained = std::max({issue, dram, l2});
    fit.explained = static_cast<Time>(std::llround(explained));
    fit.term = explained == 0       ? MeasuredTerm::latency
               : explained == issue ? MeasuredTerm::issue
               : explained == dram  ? MeasuredTerm::dram
                                    : MeasuredTerm::l2;
    if (explained >= wave) return fit;  // the issue or bandwidth term takes the whole wave: no floor
    fit.term = MeasuredTerm::latency;
    double latency = wave;
    if (queue && m.instructions) {
        // The floor L = W (Z + s) whose think time Z makes the busiest SM (ceil(B / S) blocks, o1 at a
        // time) take the launch less its overheads under the `queue` issue model: bisection on Z.
        const auto on_sm = static_cast<std::uint64_t>(std::ceil(blocks / sms));
        const double target = static_cast<double>(m.measured) - overhead;
        if (sm_queue_time_extended(on_sm, o1, w, schedulers, warp.issue_slots, 0, service) >= target) {
            fit.term = MeasuredTerm::issue;  // the SM's issue slots alone take the launch
            return fit;
        }
        double lo = 0, hi = target / warp.issue_slots;
        for (int i = 0; i < 50; ++i) {
            const double mid = (lo + hi) / 2;
            const double t = sm_queue_time_extended(on_sm, o1, w, schedulers, warp.issue_slots, mid, service);
            (t < target ? lo : hi) = mid;
        }
        latency = warp.issue_slots * (hi + service);
    }
    fit.latency_cycles = latency * f * 1e-6;
    fit.memory_floor_ps = std::min(dram, latency);
    if (m.flops && *m.flops > 0 && !m.dtype.empty()) {
        if (const auto rate = flops_per_sm_cycle(g, m.dtype); rate && *rate > 0) {
            const double busiest_sm_flops = std::ceil(blocks / sms) * (*m.flops / blocks);
            const double compute = busiest_sm_flops / (*rate * f * 1e-6) / waves;  // ps per wave
            fit.compute_floor_ps = std::max(0.0, std::min(compute, latency - fit.memory_floor_ps));
            fit.reference_flops_per_sm_cycle = *rate;
            const double busy_sms = std::min(blocks, sms);
            const auto full_clock = hw::full_tensor_clock_mhz(g);
            const double utilisation = full_clock && m.dtype != "fp32"
                                           ? *m.flops / (*rate * busy_sms * static_cast<double>(m.measured) * *full_clock * 1e-6)
                                           : 0;
            // More FLOPs than the peak allows in the measured time (u > 1) do not fit the duration: no clock from them.
            const auto load = utilisation <= 1 ? hw::tensor_load_from_utilisation(g, busy_sms, utilisation) : std::nullopt;
            if (load && fit.compute_floor_ps > 0) {
                fit.reference_tensor_clock_mhz = load->clock_mhz;
                fit.tensor_activity = load->activity;
            }
        }
    }
    return fit;
}

std::optional<double> flops_per_sm_cycle(const hw::GpuSpec& gpu, const std::string& dtype) {
    if (dtype == "fp32") return gpu.fma_flops_per_sm_cycle;
    return hw::tensor_flops_per_sm_cycle(gpu, dtype);
}

double launch_dram_time_ps(const hw::GpuSpec& gpu, std::uint64_t blocks, int warps_per_block, double dram_bytes_per_warp) {
    if (!gpu.dram_bandwidth_gbps || dram_bytes_per_warp <= 0) return 0;
    const double b = static_cast<double>(blocks);
    const double launch_bytes = b * warps_per_block * dram_bytes_per_warp;
    const double busiest_sm_bytes = std::ceil(b / gpu.sm_count) * warps_per_block * dram_bytes_per_warp;
    const double sm_cap = gpu.sm_dram_bandwidth_gbps.value_or(0) * 1e-3;  // bytes per ps
    return std::max(launch_bytes / (*gpu.dram_bandwidth_gbps * 1e-3), sm_cap > 0 ? busiest_sm_bytes / sm_cap : 0);
}

}  // namespace gpusched::workloads
