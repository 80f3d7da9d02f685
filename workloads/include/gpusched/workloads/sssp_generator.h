// The `sssp` generator: n x SSSP (Crauser's relax / minimum / update kernels) as concurrent kernels on streams.
#pragma once

#include <cstdint>

#include "gpusched/workloads/generator_registry.h"

namespace gpusched::workloads {

/// Bounds of one `sssp` spec: instances x nodes bounds the tables' memory, instances x edges the CPU time.
constexpr std::uint64_t kMaxSsspInstanceNodes = std::uint64_t{1} << 23;
constexpr std::uint64_t kMaxSsspInstanceEdges = std::uint64_t{1} << 30;

/// The `sssp` generator: keys nodes, degree, seed or graph; sources, streams, criteria, per-kernel threads
/// and carveouts, edge_latency_cycles, ns_per_instr (docs/workloads.md). One spec stands for every launch
/// of its K instances (sssp_launches), at most kMaxSpecApplicationLaunches.
KernelGeneratorInfo sssp_generator();

}  // namespace gpusched::workloads
