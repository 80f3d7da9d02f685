// The power-limited clock of tensor-core work (the f^3 power rule over execution.tensor_power_sms).
#include "gpusched/hw/tensor_clock.h"

#include <algorithm>
#include <cmath>

namespace gpusched::hw {

bool has_tensor_power(const GpuSpec& gpu) { return gpu.tensor_clock_mhz && gpu.tensor_power_sms; }

std::optional<double> full_tensor_clock_mhz(const GpuSpec& gpu) {
    if (!has_tensor_power(gpu)) return std::nullopt;
    return gpu.clock_mhz ? std::min(*gpu.tensor_clock_mhz, *gpu.clock_mhz) : *gpu.tensor_clock_mhz;
}

std::optional<double> power_limited_tensor_clock_mhz(const GpuSpec& gpu, double busy_sms) {
    const auto top = full_tensor_clock_mhz(gpu);
    if (!top) return std::nullopt;
    if (busy_sms <= *gpu.tensor_power_sms) return *top;
    return *top * std::pow(*gpu.tensor_power_sms / busy_sms, 1.0 / kTensorPowerExponent);
}

std::optional<TensorLoad> tensor_load_from_utilisation(const GpuSpec& gpu, double sms, double utilisation) {
    const auto full = full_tensor_clock_mhz(gpu);
    if (!full || sms <= 0 || utilisation <= 0) return std::nullopt;
    const double top = *full;
    const double ratio = *gpu.tensor_power_sms / (sms * utilisation);
    TensorLoad load;
    load.clock_mhz = ratio >= 1 ? top : top * std::pow(ratio, 1.0 / (kTensorPowerExponent - 1));
    load.activity = std::min(1.0, utilisation * top / load.clock_mhz);
    return load;
}

}  // namespace gpusched::hw
