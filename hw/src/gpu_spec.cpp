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

}  // namespace gpusched::hw
