// The `binomial-series` generator: the compute-bound paper's kernel, every thread summing K series terms.
#pragma once

#include <cstdint>
#include <string>

#include "gpusched/support/time.h"
#include "gpusched/workloads/cycle_latency.h"
#include "gpusched/workloads/gpu_bound_work.h"
#include "gpusched/workloads/generator_registry.h"
#include "gpusched/workloads/kernel_launch.h"

namespace gpusched::workloads {

/// The per-thread counts of the kernel (see docs/workloads.md for the loop they come from).
struct BinomialSeriesKeys {
    std::uint64_t terms = 1000;       ///< K; the paper does not state it, so this is our choice
    double instr_per_term = 10;       ///< loop body: I2F, FADD, FMUL, MUFU.RCP, FMUL, FMUL, FADD, IADD, ISETP, BRA
    double term_latency_cycles = 0;   ///< dependency-chain cycles per term (0: no latency bound)
    bool term_latency_given = false;  ///< term_latency_cycles was given: the GPU does not derive it
    double elem_bytes = 4;            ///< the one result each thread stores
};

/// Block work of the kernel: every block identical, every warp (the last partial one too) active.
/// Bound to a GPU without term_latency_cycles given, the latency per term is the loop's chain on
/// that GPU (binomial_term_chain: one lone warp's in-order cycles per term).
class BinomialSeriesWork final : public BlockWork, public CycleLatencyWork, public GpuBoundWork {
public:
    /// `threads_per_block` spreads the stores over the warps; `fixed_duration` is the `fixed` model's.
    BinomialSeriesWork(BinomialSeriesKeys keys, std::uint64_t threads_per_block, Time fixed_duration);

    /// The `fixed` stand-in: issue_slots x ns_per_instr.
    [[nodiscard]] Time duration(std::uint64_t block) const override;
    /// issue_slots = K x instr_per_term; latency_bound 0 (see latency_bound_cycles); dram_bytes =
    /// elem_bytes x threads per block / ceil(threads / 32) (one store per thread).
    [[nodiscard]] std::optional<WarpWork> warp_work(std::uint64_t block) const override;
    /// K x term_latency_cycles.
    [[nodiscard]] double latency_bound_cycles(std::uint64_t block) const override;
    /// The work with term_latency_cycles derived from the GPU; nullptr when it was given.
    [[nodiscard]] std::shared_ptr<const BlockWork> bind(const GpuContext& context) const override;
    [[nodiscard]] WorkDerivation derivation(const GpuContext& context) const override;
    /// e.g. "binomial series, 1000 terms: 10000 issue slots per warp".
    [[nodiscard]] std::string describe() const override;

    [[nodiscard]] const BinomialSeriesKeys& keys() const { return keys_; }
    [[nodiscard]] double issue_slots() const;

private:
    BinomialSeriesKeys keys_;
    std::uint64_t threads_per_block_;
    Time fixed_duration_;
};

/// The `binomial-series` generator: generic blocks/grid and threads/block (required), and keys
/// terms, instr_per_term, term_latency_cycles, elem_bytes, ns_per_instr.
KernelGeneratorInfo binomial_series_generator();

}  // namespace gpusched::workloads
