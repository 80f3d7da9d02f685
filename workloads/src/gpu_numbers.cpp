// GpuNumbers: recorded, checked reads of a GPU spec's latencies and rates.
#include "gpusched/workloads/gpu_numbers.h"

#include <algorithm>
#include <utility>

#include "gpusched/hw/gpu_spec_provenance.h"
#include "gpusched/support/input_error.h"
#include "gpusched/workloads/spec_numbers.h"

namespace gpusched::workloads {

GpuNumbers::GpuNumbers(const hw::GpuSpec& gpu, std::string model, std::string work_key)
    : gpu_(gpu), model_(std::move(model)), work_key_(std::move(work_key)) {}

void GpuNumbers::record(std::string_view key, double value) {
    const bool seen = std::any_of(used_.begin(), used_.end(), [&](const GpuNumberUse& u) { return u.key == key; });
    if (!seen) used_.push_back({std::string(key), value, hw::gpu_rule(gpu_, key).value_or("")});
}

std::optional<double> GpuNumbers::maybe(std::string_view key) {
    const auto value = hw::gpu_number(gpu_, key);
    if (value) record(key, *value);
    return value;
}

double GpuNumbers::need(std::string_view key) {
    const auto value = maybe(key);
    if (!value)
        throw InputError("GPU '" + gpu_.name + "' has no " + std::string(key) + ", which the " + model_ +
                         " work model needs for its latency floor; add it to the GPU file (docs/gpu-spec.md) or give " +
                         work_key_ + "= in the kernel spec");
    return *value;
}

double GpuNumbers::l2_hit_latency() {
    if (!gpu_.l2_bytes && !gpu_.l2_hit_latency_cycles) return dram_latency();
    return need("memory.l2_hit_latency_cycles");
}

std::string describe_gpu_number(const GpuNumberUse& use) {
    return use.key + " = " + format_spec_number(use.value) + (use.rule.empty() ? " (data)" : " (rule: " + use.rule + ")");
}

}  // namespace gpusched::workloads
