// SSSP launches: K Crauser instances, each iteration a relax, minimum and update launch, spread over C streams.
#pragma once

#include <cstdint>
#include <vector>

#include "gpusched/hw/occupancy.h"
#include "gpusched/workloads/graph.h"
#include "gpusched/workloads/kernel_launch.h"
#include "gpusched/workloads/sssp_work.h"

namespace gpusched::workloads {

/// Most streams one `sssp` spec spreads its instances over (the paper's largest concurrency degree).
constexpr std::uint64_t kMaxSsspStreams = 32;

/// How K SSSP instances become launches.
struct SsspOptions {
    std::uint32_t sources = 1;  ///< K instances, from sources 0, 1, ..., K-1
    std::uint32_t streams = 1;  ///< C: instance k runs on stream base.stream + (k mod C)
    SsspKernelConfig kernels;
    hw::Carveout relax_carveout, min_carveout, update_carveout;
    /// Static shared memory of the minimum kernel (reduce4's T partial values); unset (-1): 4 bytes x T x values.
    std::int64_t min_static_smem = -1;
};

/// The launches of K instances in host issue order: instances go in batches of C (one per stream);
/// within a batch, iteration by iteration, the host issues every running instance's relax, then every
/// minimum, then every update (the last iteration, whose minimum finds no reached node, has no update).
/// Each launch copies `base` (registers, shared memory, barriers, name prefix, first stream) and sets its
/// name (prefix-relax, -minimum, -update), grid, block, carveout, stream and SsspWork. Throws
/// std::length_error when they would be more than `max_launches` (naming the count needed so far).
std::vector<KernelLaunch> sssp_launches(const Graph& graph, const SsspOptions& options, const KernelLaunch& base,
                                        std::uint64_t max_launches);

}  // namespace gpusched::workloads
