// The `apsp-fw` generator: the interval paper's Floyd-Warshall global-memory kernel (Alg. 3-4, eqs. 19-24).
#pragma once

#include <optional>

#include "gpusched/workloads/apsp_grid.h"
#include "gpusched/workloads/apsp_work.h"
#include "gpusched/workloads/generator_registry.h"

namespace gpusched::workloads {

/// The per-warp counts of kernel APSP-FW (Alg. 4) that are not hardware numbers.
struct FloydWarshallKeys {
    double instr_per_step = 2;   ///< eq. 22: #InstrPerVertex-FW = 2 (the add and the compare of line 3)
    double latency_cycles = 0;   ///< dependency-chain cycles per warp (0: no latency bound)
    bool latency_given = false;  ///< latency_cycles was given: the GPU does not derive it
};

/// Per active warp:
///   issue_slots    = instr_per_step + 3 + 3 p_min   (3 loads of line 3; with p_min: store D,
///                                                    load P(k, gy), store P, lines 4-5)
///   latency_cycles = latency_cycles
///   dram bytes per thread = elem_bytes x ((2 + p_min) + 2 p_min)    (eqs. 23 and 24)
ApspWarpCost floyd_warshall_warp_cost(const FloydWarshallKeys& keys, const ApspCommonKeys& common);

/// The same warps on a GPU (ApspWork::bind), like minplus_cost_on_gpu; nullopt without any of
/// the GPU's memory keys. Of eq. 23's reads, D(gx, gy) is the thread's own element and D(gx, k)
/// or D(k, gy) (and P(k, gy)) lie in row or column k, read by every block of the launch.
/// - L2: when D and P (2 n^2 elem_bytes) fit in l2_bytes everything hits; otherwise row and
///   column k hit and the own element and the writes go to DRAM.
/// - Latency (unless latency_cycles was given): the loads of line 3 (DRAM latency when the own
///   element misses, else the L2 hit latency) and, with probability p_min, line 5's load of
///   P(k, gy), plus one warp's issue slots at issue_width.
/// - L1 wavefronts: one per 128-byte line a warp's load or store touches.
std::optional<ApspWarpCost> floyd_warshall_cost_on_gpu(const ApspGrid& grid, const FloydWarshallKeys& keys,
                                                       const ApspCommonKeys& common, const GpuContext& context,
                                                       GpuNumbers& numbers, std::vector<std::string>& steps);

/// The `apsp-fw` generator: n launches; keys n, block, instr_per_step, latency_cycles, p_min,
/// elem_bytes, ns_per_instr.
KernelGeneratorInfo apsp_fw_generator();

}  // namespace gpusched::workloads
