// PartitionSpec: how a GPU's driver splits its SMs into green-context partitions, and the split itself.
#pragma once

#include <string>
#include <vector>

namespace gpusched::hw {

struct GpuSpec;

/// The `partitions` section of a GPU spec (docs/gpu-spec.md, docs/scheduling.md "SM partitions").
/// A green context of K SMs (K a multiple of `granularity`) gets the first K SMs of
/// topology.partition_order. Splitting the device into several equal groups at once
/// (cuDevSmResourceSplitByCount) interleaves them differently: `splits` holds the measured sets,
/// one list of groups per split.
struct PartitionSpec {
    int granularity = 1;                                  ///< SMs of a partition come in multiples of this
    std::vector<std::vector<std::vector<int>>> splits;    ///< measured splits: groups of SM ids each
    bool operator==(const PartitionSpec&) const = default;
};

/// Why `spec` is inconsistent for a GPU of `sm_count` SMs (granularity below 1, an SM id out of
/// range or twice in one split, groups of one split of different sizes), or "".
std::string partition_spec_problem(const PartitionSpec& spec, int sm_count, const std::string& path);

/// The SMs of each partition of a workload's `sizes` (SM counts) on `gpu`, each list in
/// topology.partition_order's order:
///   - one partition of K SMs: the first K SMs of topology.partition_order (measured);
///   - G partitions of one size K with a measured split of G groups of K: that split's groups
///     (when all its SMs exist: a GPU made smaller by --sms keeps the section, not every SM);
///   - otherwise partition i gets the next sizes[i] SMs of topology.partition_order after
///     partitions 0..i-1 (not measured; docs/scheduling.md says so).
/// InputError "WHERE: key 'KEY[i]': ..." (or 'KEY') when the GPU has no partition order or
/// `partitions` section, a size is not a positive multiple of the granularity, or the sizes add
/// up to more SMs than the partition order lists (the SMs green contexts can take).
std::vector<std::vector<int>> partition_sms(const GpuSpec& gpu, const std::vector<int>& sizes, const std::string& where,
                                            const std::string& key = "partitions");

}  // namespace gpusched::hw
