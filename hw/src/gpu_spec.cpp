// GpuSpec helpers that derive values from the plain data.
#include "gpusched/hw/gpu_spec.h"

#include <numeric>

namespace gpusched::hw {

std::vector<int> GpuSpec::dispatch_order() const {
    if (!sm_order.empty()) return sm_order;
    std::vector<int> order(static_cast<std::size_t>(sm_count));
    std::iota(order.begin(), order.end(), 0);
    return order;
}

std::string GpuSpec::compute_capability() const {
    return std::to_string(cc_major) + "." + std::to_string(cc_minor);
}

std::optional<double> GpuSpec::sm_dram_cap_gbps() const {
    if (sm_dram_bandwidth_gbps) return sm_dram_bandwidth_gbps;
    if (!l1_wavefronts_per_cycle || !clock_mhz) return std::nullopt;
    constexpr double kWavefrontBytes = 128;  // a wavefront is one 128-byte L1 access (execution.l1_wavefronts_per_cycle)
    return *l1_wavefronts_per_cycle * kWavefrontBytes * *clock_mhz * 1e-3;  // bytes/cycle x MHz = 10^6 B/s; / 10^3: GB/s
}

bool GpuSpec::sm_dram_cap_by_rule() const { return !sm_dram_bandwidth_gbps && sm_dram_cap_gbps().has_value(); }

}  // namespace gpusched::hw
