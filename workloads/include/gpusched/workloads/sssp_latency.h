// The n x SSSP kernels' latency floors on a GPU: their chain segments (sssp_chains) for one instance's tables.
#pragma once

#include <string>
#include <vector>

#include "gpusched/hw/gpu_spec.h"
#include "gpusched/workloads/gpu_numbers.h"
#include "gpusched/workloads/sssp_work.h"

namespace gpusched::workloads {

/// Whether one instance's arrays (per node: dist, two offsets' share, U, F; per edge: column and
/// weight) fit in L2: the kernels' loads hit there, else DRAM.
bool sssp_graph_in_l2(const SsspTables& tables, const hw::GpuSpec& gpu);

/// The segments of every kernel of `tables`' instance on `gpu` (GPU numbers read through `numbers`).
SsspLatency derive_sssp_latency(GpuNumbers& numbers, const SsspTables& tables, const hw::GpuSpec& gpu);

/// A warp's floor in block cost `c` of `kernel` from the segments (docs/workloads.md "Latency floors
/// derived from the GPU").
double sssp_latency_cycles(const SsspLatency& l, SsspKernel kernel, const SsspBlockCost& c);

/// `gpusched show work`'s lines for `kernel`: each segment's chain and how the floor is built.
std::vector<std::string> sssp_latency_steps(GpuNumbers& numbers, const SsspTables& tables, const hw::GpuSpec& gpu,
                                            SsspKernel kernel);

}  // namespace gpusched::workloads
