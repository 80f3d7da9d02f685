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
    double cycles_per_step = 0;    ///< one lone warp's in-order cycles per loop step
    double fixed_cycles = 0;       ///< once per warp outside the loop (spmv: prologue and epilogue)
    std::string fixed_what;        ///< what fixed_cycles are
};

/// binomial-series: one term of the textbook loop (I2F, IADD, MUFU.RCP, FADD, ISETP, FMUL x3, FADD, BRA).
StepChain binomial_term_chain(GpuNumbers& gpu);

/// streamcluster: one distance-loop trip (coordinate load, the candidate's coordinate, FADD, FFMA,
/// address add, branch), the loop unrolled 4x so that four trips' loads issue together.
/// `coordinates_in_l2`: the points' coordinates fit in L2 (their loads hit there), else DRAM.
StepChain streamcluster_trip_chain(GpuNumbers& gpu, bool coordinates_in_l2);

/// The three SpMV kernels' loops.
enum class SpmvChainKernel { csr, ell, coo };

/// spmv. CSR: one 32-wide step (index and value loads, the gathered x[col] after the index, FFMA,
/// index add, branch; not unrolled: rows span 1-4 steps), plus per warp the row offsets' load and
/// the 5-step shared-memory reduction. ELL: the same step per padded slot, unrolled 4x (four
/// slots' loads together). COO: one of the five segmented-scan steps (shared load, compare, FADD,
/// shared store), plus per warp the loads and multiply before it. `matrix_in_l2`: the matrix and
/// vectors fit in L2 (every load an L2 hit), else the matrix streams from DRAM and x[col] hits L2.
StepChain spmv_step_chain(GpuNumbers& gpu, SpmvChainKernel kernel, bool matrix_in_l2);

/// sssp relax: one edge-loop trip (col and weight loads, the dependent U[j] load, compare, add,
/// fire-and-forget atomicMin, index add, branch). `graph_in_l2`: the instance's arrays fit in L2.
StepChain sssp_edge_chain(GpuNumbers& gpu, bool graph_in_l2);

/// "per STEP: BODY -> N cycles" for `gpusched show work`.
std::string describe_step_chain(const StepChain& chain, const std::string& step);

}  // namespace gpusched::workloads
