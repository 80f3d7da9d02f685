// The dependency chains of the generators' loops, timed on a GPU: each generator's latency floor per loop step.
#pragma once

#include <string>
#include <vector>

#include "gpusched/workloads/gpu_numbers.h"
#include "gpusched/workloads/in_order_chain.h"

namespace gpusched::workloads {

/// A loop body's chain on a GPU: the instructions (pipe and latency each), and one lone warp's
/// in-order cycles per loop step (docs/workloads.md "Latency floors derived from the GPU").
struct StepChain {
    std::vector<ChainInstruction> body;
    double unroll = 1;             ///< loop steps the body covers
    double cycles_per_step = 0;    ///< one lone warp's in-order cycles per loop step (a segment: its cycles run once)
    bool once = false;             ///< a segment run once from idle (up to its last result), not a loop body
};

/// binomial-series: one term of the textbook loop (I2F, IADD, MUFU.RCP, FADD, ISETP, FMUL x3, FADD, BRA).
StepChain binomial_term_chain(GpuNumbers& gpu);

/// streamcluster: one distance-loop trip (coordinate load, the candidate's coordinate, FADD, FFMA,
/// address add, branch), the loop unrolled 4x so that four trips' loads issue together.
/// `coordinates_in_l2`: the points' coordinates fit in L2 (their loads hit there), else DRAM.
StepChain streamcluster_trip_chain(GpuNumbers& gpu, bool coordinates_in_l2);

/// The three SpMV kernels (validation/runner/spmv_kernels.cu: Bell and Garland's, CSR with a
/// shuffle reduction, COO with a shuffle segmented scan).
enum class SpmvChainKernel { csr, ell, coo };

/// A warp of an SpMV kernel as segments of its dependency chain on a GPU, each in SM cycles
/// (docs/workloads.md "Latency floors derived from the GPU"). A warp's floor is entry + exit + the
/// loop: nvcc's loops over a runtime trip count run `singles` one-step iterations (the remainder,
/// not unrolled) and `groups` bodies unrolled 4x, whose loads issue together. A step or group
/// "with entries" loads x[col] and the value after its column index (two dependent loads); one
/// where every lane is padding (ELL) loads the index only. COO has no loop: its five scan steps
/// are `singles` steps of `single`.
struct SpmvChain {
    StepChain entry;          ///< kernel parameters (the launch's first constant-bank read), row setup, loads before the loop
    StepChain single;         ///< one remainder step with entries (COO: one scan step)
    StepChain single_empty;   ///< ELL: one remainder step whose lanes are all padding
    StepChain group;          ///< four unrolled steps with entries
    StepChain group_empty;    ///< ELL: four unrolled steps whose lanes are all padding
    StepChain exit;           ///< after the loop: CSR's 5-step shuffle reduction, COO's segment test
};

/// spmv: the chain segments of `kernel`. `matrix_in_l2`: the matrix and vectors fit in L2 (every
/// load an L2 hit), else the matrix streams from DRAM and x[col] hits L2.
SpmvChain spmv_chain(GpuNumbers& gpu, SpmvChainKernel kernel, bool matrix_in_l2);

/// sssp relax: one edge-loop trip (col and weight loads, the dependent U[j] load, compare, add,
/// fire-and-forget atomicMin, index add, branch). `graph_in_l2`: the instance's arrays fit in L2.
StepChain sssp_edge_chain(GpuNumbers& gpu, bool graph_in_l2);

/// The segments of the three n x SSSP kernels around the edge loop (validation/runner/sssp_kernels.cu),
/// each run once by a warp: every kernel starts with the launch's first constant-bank read.
struct SsspChains {
    StepChain relax_entry;     ///< parameters, then F[tid]
    StepChain relax_frontier;  ///< a frontier node: dist[tid] and its two row offsets, the loop test
    StepChain min_entry;       ///< parameters, the element index
    StepChain min_level;       ///< one level of min_term's dependent loads (U, then dist, then the out-weight)
    StepChain min_tree;        ///< the shared store, barrier, tree steps of stride >= 32, 5 shuffles, atomicMin
    StepChain update_entry;    ///< parameters, the F store, U[tid]
    StepChain update_test;     ///< an unsettled node: dist[tid] and the threshold, compare, stores
};

/// sssp: the segments above; `min_tree_steps`: the minimum's tree steps with a barrier
/// (log2(threads) - 5 for a power of two), `min_warps` the warps a barrier waits for.
SsspChains sssp_chains(GpuNumbers& gpu, bool graph_in_l2, int min_tree_steps, int min_warps);

/// "per STEP: BODY -> N cycles" (a segment: "STEP: BODY -> N cycles") for `gpusched show work`.
std::string describe_step_chain(const StepChain& chain, const std::string& step);

}  // namespace gpusched::workloads
