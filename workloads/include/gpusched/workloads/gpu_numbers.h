// GpuNumbers: a work model's reads of GPU latencies and rates, recorded with where each came from (data or rule).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/hw/gpu_spec.h"

namespace gpusched::workloads {

/// One GPU number a work model used on a GPU: its YAML key path, value, and the rule that gave
/// it (empty: data, with its source cited in the GPU file).
struct GpuNumberUse {
    std::string key;
    double value = 0;
    std::string rule;
};

/// Reads GPU numbers for one work model and remembers each one read. A number the model needs
/// and the GPU lacks is an InputError naming the GPU, the key and the work key that would
/// replace the derivation: never a silent zero.
class GpuNumbers {
public:
    /// `model` names the work model in messages ("binomial-series"), `work_key` the spec key
    /// that would make the derived number unnecessary ("term_latency_cycles").
    GpuNumbers(const hw::GpuSpec& gpu, std::string model, std::string work_key);

    /// The value of `key` (a path of hw::gpu_number_keys()); InputError when the GPU lacks it.
    double need(std::string_view key);
    /// The value of `key` when the GPU gives it (recorded), else nullopt.
    std::optional<double> maybe(std::string_view key);
    /// A dependent global load that hits in L2: memory.l2_hit_latency_cycles, or on a GPU
    /// without an L2 for global memory (no memory.l2_bytes) memory.dram_latency_cycles.
    double l2_hit_latency();
    /// A dependent global load that misses L2: memory.dram_latency_cycles.
    double dram_latency() { return need("memory.dram_latency_cycles"); }

    [[nodiscard]] const std::vector<GpuNumberUse>& used() const { return used_; }
    [[nodiscard]] const hw::GpuSpec& gpu() const { return gpu_; }

private:
    void record(std::string_view key, double value);

    const hw::GpuSpec& gpu_;
    std::string model_;
    std::string work_key_;
    std::vector<GpuNumberUse> used_;
};

/// "KEY = VALUE (data)" or "KEY = VALUE (rule: RULE)".
std::string describe_gpu_number(const GpuNumberUse& use);

}  // namespace gpusched::workloads
