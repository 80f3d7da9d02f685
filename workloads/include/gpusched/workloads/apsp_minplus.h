// The `apsp-minplus` generator: the interval paper's Min-plus APSP kernel (Alg. 1-2, eqs. 1-13).
#pragma once

#include <cstdint>

#include "gpusched/workloads/apsp_grid.h"
#include "gpusched/workloads/apsp_work.h"
#include "gpusched/workloads/kernel_generators.h"

namespace gpusched::workloads {

/// max(1, ceil(log2(n - 1))) for n >= 2: the host's launches of kernel APSP (Alg. 1 line 2,
/// eq. 1). n = 2 gives ceil(log2 1) = 0 in the paper (D = A is already the answer); we keep
/// one launch so that every spec is a non-empty application.
std::uint64_t minplus_steps(std::uint64_t n);

/// The per-warp counts of kernel APSP (Alg. 2) that are not hardware numbers.
struct MinplusKeys {
    double instr_per_step = 4;        ///< lines 7-8 per k: 2 shared loads, add, min/argmin update
    double instr_per_tile = 10;       ///< per tile: 2 global loads, 2 shared stores, 2 barriers,
                                      ///< 2 for line 9 (compare, predicated update), 2 loop control
    double tile_latency_cycles = 0;   ///< dependency-chain cycles per tile (0: no latency bound)
};

/// Per active warp, with GW = GridWidth, BS = BlockSize:
///   issue_slots    = GW x (BS x instr_per_step + instr_per_tile) + 2 + 3 p_min
///   latency_cycles = GW x tile_latency_cycles
///   dram bytes per thread = elem_bytes x ((1 + 2 GW + p_min) + 2 p_min)     (eqs. 4 and 5)
ApspWarpCost minplus_warp_cost(const ApspGrid& grid, const MinplusKeys& keys, const ApspCommonKeys& common);

/// The `apsp-minplus` generator: keys n, block, steps, instr_per_step, instr_per_tile,
/// tile_latency_cycles, p_min, elem_bytes, ns_per_instr.
KernelGeneratorInfo apsp_minplus_generator();

}  // namespace gpusched::workloads
