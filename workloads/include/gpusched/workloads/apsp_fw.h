// The `apsp-fw` generator: the interval paper's Floyd-Warshall global-memory kernel (Alg. 3-4, eqs. 19-24).
#pragma once

#include "gpusched/workloads/apsp_grid.h"
#include "gpusched/workloads/apsp_work.h"
#include "gpusched/workloads/kernel_generators.h"

namespace gpusched::workloads {

/// The per-warp counts of kernel APSP-FW (Alg. 4) that are not hardware numbers.
struct FloydWarshallKeys {
    double instr_per_step = 2;   ///< eq. 22: #InstrPerVertex-FW = 2 (the add and the compare of line 3)
    double latency_cycles = 0;   ///< dependency-chain cycles per warp (0: no latency bound)
};

/// Per active warp:
///   issue_slots    = instr_per_step + 3 + 3 p_min   (3 loads of line 3; with p_min: store D,
///                                                    load P(k, gy), store P, lines 4-5)
///   latency_cycles = latency_cycles
///   dram bytes per thread = elem_bytes x ((2 + p_min) + 2 p_min)    (eqs. 23 and 24)
ApspWarpCost floyd_warshall_warp_cost(const FloydWarshallKeys& keys, const ApspCommonKeys& common);

/// The `apsp-fw` generator: n launches; keys n, block, instr_per_step, latency_cycles, p_min,
/// elem_bytes, ns_per_instr.
KernelGeneratorInfo apsp_fw_generator();

}  // namespace gpusched::workloads
