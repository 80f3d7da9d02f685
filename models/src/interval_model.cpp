// Closed-form warps-per-SM of the interval paper's four block-distribution assumptions.
#include "gpusched/models/interval_model.h"

#include <algorithm>
#include <queue>
#include <vector>

#include "gpusched/support/input_error.h"

namespace gpusched::models {

namespace {
std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }
}  // namespace

WarpsPerSm interval_warps_per_sm(const IntervalKernel& k) {
    if (k.blocks == 0 || k.sm_count <= 0 || k.blocks_per_sm <= 0 || k.warps_per_block <= 0 || !k.active_warps)
        throw InputError("interval model: blocks, SMs, blocks per SM and warps per block must be positive");
    const auto sms = static_cast<std::uint64_t>(k.sm_count);
    const auto bps = static_cast<std::uint64_t>(k.blocks_per_sm);
    const auto full_warps = static_cast<std::uint64_t>(k.warps_per_block);
    WarpsPerSm w;
    // Min (eq. 14) and the per-block active warps for Sorted.
    std::vector<std::vector<std::uint64_t>> by_warps(full_warps + 1);
    std::uint64_t total = 0;
    for (std::uint64_t b = 0; b < k.blocks; ++b) {
        const auto a = static_cast<std::uint64_t>(std::clamp(k.active_warps(b), 0, k.warps_per_block));
        total += a;
        by_warps[a].push_back(b);
    }
    w.min = ceil_div(total, sms);
    // Sorted: decreasing active warps, each block to the least-loaded SM.
    std::priority_queue<std::uint64_t, std::vector<std::uint64_t>, std::greater<>> loads;
    for (std::uint64_t s = 0; s < sms; ++s) loads.push(0);
    for (std::uint64_t a = full_warps + 1; a-- > 0;) {
        for (std::size_t i = 0; i < by_warps[a].size(); ++i) {
            const std::uint64_t least = loads.top();
            loads.pop();
            loads.push(least + a);
        }
    }
    while (loads.size() > 1) loads.pop();
    w.sorted = loads.top();
    // Full (eq. 15).
    w.full = ceil_div(k.blocks, sms) * full_warps;
    // Buckets (eqs. 16-18, with whole rounds: see the header).
    const std::uint64_t blocks1 = k.blocks / (bps * sms) * bps;
    const std::uint64_t blocks2 = std::min(k.blocks - blocks1 * sms, bps);
    w.buckets = (blocks1 + blocks2) * full_warps;
    return w;
}

double interval_kernel_time(double launch_time, double warp_time, std::uint64_t warps_per_sm, int threads_per_warp,
                            int cores_per_sm) {
    return launch_time + warp_time * static_cast<double>(warps_per_sm) * threads_per_warp / cores_per_sm;
}

double interval_calibration_factor(double measured, double t_min, double t_sorted, double t_full, double t_buckets) {
    const double sum = t_min + t_sorted + t_full + t_buckets;
    if (!(sum > 0)) throw InputError("interval model: the four predictions must sum to a positive time");
    return 4 * measured / sum;
}

}  // namespace gpusched::models
