// The `apsp-minplus` generator: the interval paper's Min-plus APSP kernel (Alg. 1-2, eqs. 1-13).
#pragma once

#include <cstdint>
#include <optional>

#include "gpusched/workloads/apsp_grid.h"
#include "gpusched/workloads/apsp_work.h"
#include "gpusched/workloads/generator_registry.h"

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
    double exposed_shared_loads = 3;  ///< shared-load latencies on one warp's path through lines 7-8
    double address_chain_instr = 4;   ///< dependent instructions from the loop top to line 5's last load
    bool tile_latency_given = false;  ///< tile_latency_cycles was given: the GPU does not derive it
};

/// Per active warp, with GW = GridWidth, BS = BlockSize:
///   issue_slots    = GW x (BS x instr_per_step + instr_per_tile) + 2 + 3 p_min
///   latency_cycles = GW x tile_latency_cycles
///   dram bytes per thread = elem_bytes x ((1 + 2 GW + p_min) + 2 p_min)     (eqs. 4 and 5)
ApspWarpCost minplus_warp_cost(const ApspGrid& grid, const MinplusKeys& keys, const ApspCommonKeys& common);

/// The same warps on a GPU (ApspWork::bind), from the GPU's memory keys; nullopt when it has none
/// of them (the counts above stand). Per thread the kernel reads its own element (line 3), GW
/// row tiles and GW column tiles (line 5) and, with probability p_min, P(gx, kmin) (line 11), and
/// writes D and P with probability p_min; D and P take F = 2 n^2 elem_bytes.
/// - L2 (needs l2_bytes and l2_bandwidth_gbps): when F <= l2_bytes every access hits (Init and the
///   previous launch left D and P in L2). Otherwise a wave holds R = resident blocks / GW block rows:
///   a row strip is read by the GW blocks of its row (one miss per GW reads), a column strip by the R
///   rows of the wave and again by every later wave (one miss per max(1, R) reads); line 3 and
///   line 11 miss. Hits go to l2_bytes, misses to dram_bytes.
/// - Latency (needs l2_hit_latency_cycles; unless tile_latency_cycles was given: then GW x it):
///   what one block alone on an SM waits for. Per tile: the two tile loads (L2 hit latency when
///   both hit, else dram_latency_cycles, weighted by the hit probabilities) with the fill's
///   tile_fill_extra_cycles and the block's load and store wavefronts; a shared-memory load
///   latency and two barriers (barrier_cycles + barrier_cycles_per_warp x warps); and lines 5-8,
///   the longest of one warp's dependent path, one warp's issue slots at issue_width, the block's
///   slots at the SM's issue rate and the block's k-loop L1 wavefronts at l1_wavefronts_per_cycle. The
///   path (the compiled kernel's in-order issue, counted in its SASS) waits out
///   exposed_shared_loads - 1 more shared-load latencies and BS + address_chain_instr dependent
///   instructions (the BS - 1 running-minimum updates, line 9's compare, the address arithmetic of
///   the next tile's loads), each alu_latency_cycles plus the issue slot of the argmin select
///   interleaved with it. The barriers keep one block's loads and compute from overlapping. Plus
///   line 3's load and, with probability p_min, line 11's. A key the derivation needs and the GPU
///   lacks is an InputError naming it (GpuNumbers); every number read is recorded in `numbers`,
///   and one line per derived part appended to `steps`.
/// - L1 wavefronts (needs l1_wavefronts_per_cycle): per tile 2 BS shared loads (lines 7-8), 2
///   shared stores and 2 global loads of one wavefront per 128-byte line a warp touches (line 5);
///   plus lines 3 and 11.
std::optional<ApspWarpCost> minplus_cost_on_gpu(const ApspGrid& grid, const MinplusKeys& keys,
                                                const ApspCommonKeys& common, const GpuContext& context,
                                                GpuNumbers& numbers, std::vector<std::string>& steps);

/// The `apsp-minplus` generator: keys n, block, steps, instr_per_step, instr_per_tile,
/// tile_latency_cycles, exposed_shared_loads, address_chain_instr, p_min, elem_bytes, ns_per_instr.
KernelGeneratorInfo apsp_minplus_generator();

}  // namespace gpusched::workloads
