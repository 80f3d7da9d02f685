// SpMV block work for the CSR (vector), ELL, COO and HYB kernels, from each block's actual rows.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/support/time.h"
#include "gpusched/workloads/cycle_latency.h"
#include "gpusched/workloads/gpu_bound_work.h"
#include "gpusched/workloads/latency_chains.h"
#include "gpusched/workloads/kernel_launch.h"

namespace gpusched::workloads {

/// A warp's chain segments on a GPU (spmv_chain), SM cycles: entry and exit once, a remainder step
/// and an unrolled group of four steps with entries, and (ELL) the same whose lanes are all padding.
struct SpmvLatency {
    double entry = 0;
    double exit = 0;
    double single = 0;
    double single_empty = 0;
    double group = 0;
    double group_empty = 0;
};

/// Per-kernel instruction counts (warp-instructions, read off the Bell & Garland kernels the paper
/// uses) and data sizes. None describes hardware: the clock, issue rate and DRAM bandwidth that turn
/// them into time come from the GPU preset in the `shared` execution model.
struct SpmvCosts {
    // CSR vector kernel, one warp per row: row id and bounds (4), the two row offsets (2 loads + 2),
    // the 5-step shared-memory tree reduction (store, load, add: 3 each) and lane 0's y store (4).
    double csr_instr_row = 27;
    /// Per 32-entry step of a row: load Aj, load Ax, load x[Aj], FMA, index add, compare, branch.
    double csr_instr_iter = 7;
    /// ELL kernel, one thread per row: thread id, bounds check, y store.
    double ell_instr_row = 8;
    /// Per padded slot, in every warp: address, load Aj, compare with the padding marker, branch.
    double ell_instr_slot = 4;
    /// Per slot where some row of the warp has an entry (SIMT: the warp runs the body if any lane
    /// does): load Ax, load x[Aj], FMA.
    double ell_instr_entry = 3;
    /// COO kernel, one thread per non-zero: load row, column, value and x[col], multiply (5); a
    /// 5-step segmented scan in shared memory (store, load, compare rows, select: 4 each); the
    /// segment ends' y update (5).
    double coo_instr_warp = 30;
    double index_bytes = 4;  ///< 32-bit indices
    double value_bytes = 4;  ///< single precision, as in the paper
    /// Given: dependency-chain cycles of one loop step (a CSR step, an ELL slot, a COO scan step),
    /// a warp's floor being its steps x this; 0: no latency bound.
    double iter_latency_cycles = 0;
    bool iter_latency_given = false;  ///< iter_latency_cycles was given: the GPU does not derive it
    /// Derived from the GPU when iter_latency_cycles is not given (SpmvWork::bind): the kernel's
    /// chain segments (spmv_chain); the warp's floor is built from them (SpmvLatency).
    std::optional<SpmvLatency> derived;
    double ns_per_instr = 1;  ///< `fixed` model only: nanoseconds per warp-instruction
};

/// What one block of an SpMV launch does, summed over its active warps.
struct SpmvBlockSummary {
    int warps = 0;               ///< active warps (rows, 32-row groups or 32-entry groups that exist)
    double total_slots = 0;      ///< issue slots, all active warps
    double max_slots = 0;        ///< issue slots of the busiest warp
    double total_bytes = 0;      ///< device-memory bytes, all active warps
    double max_latency_cycles = 0;
};

/// CSR row offsets shared by the launches of one matrix (HYB's two parts reuse them).
using SpmvRowOffsets = std::shared_ptr<const std::vector<std::uint64_t>>;

/// The common answers of the three kernels. `fixed`: the block runs as long as its busiest warp,
/// max_slots x ns_per_instr. `shared`: each active warp carries the block's mean issue slots and
/// bytes (so the block's totals are exact), and the latency bound of its longest warp.
/// Bound to a GPU without iter_latency_cycles given, a warp's floor is built from the kernel's chain
/// segments there (spmv_chain, SpmvLatency).
class SpmvWork : public BlockWork, public CycleLatencyWork, public GpuBoundWork {
public:
    SpmvWork(SpmvRowOffsets offsets, std::uint64_t threads_per_block, SpmvCosts costs);

    /// The same kernel with its chain segments derived from the GPU; nullptr when iter_latency_cycles was given.
    [[nodiscard]] std::shared_ptr<const BlockWork> bind(const GpuContext& context) const override;
    [[nodiscard]] WorkDerivation derivation(const GpuContext& context) const override;
    /// A copy of this kernel's work with other costs.
    [[nodiscard]] virtual std::shared_ptr<const BlockWork> with_costs(const SpmvCosts& costs) const = 0;
    /// Which kernel's chain derives the latency (spmv_chain).
    [[nodiscard]] virtual SpmvChainKernel chain_kernel() const = 0;

    [[nodiscard]] virtual SpmvBlockSummary summarize(std::uint64_t block) const = 0;
    /// Blocks the launch needs.
    [[nodiscard]] virtual std::uint64_t blocks() const = 0;

    [[nodiscard]] Time duration(std::uint64_t block) const override;
    [[nodiscard]] int active_warps(std::uint64_t block, int warps_per_block) const override;
    [[nodiscard]] std::optional<WarpWork> warp_work(std::uint64_t block) const override;
    [[nodiscard]] double latency_bound_cycles(std::uint64_t block) const override;

    [[nodiscard]] std::uint64_t rows() const { return offsets_->size() - 1; }
    [[nodiscard]] std::uint64_t nnz() const { return offsets_->back(); }
    [[nodiscard]] std::uint64_t row_length(std::uint64_t r) const { return (*offsets_)[r + 1] - (*offsets_)[r]; }
    [[nodiscard]] const SpmvCosts& costs() const { return costs_; }
    [[nodiscard]] const std::vector<std::uint64_t>& offsets() const { return *offsets_; }
    [[nodiscard]] std::uint64_t threads_per_block() const { return threads_; }

protected:
    SpmvRowOffsets offsets_;
    std::uint64_t threads_;
    SpmvCosts costs_;
};

/// CSR vector kernel: warp w of block b handles row b x (threads/32) + w. A row of length len
/// costs csr_instr_row + ceil(len/32) x csr_instr_iter slots and index_bytes (its offset) +
/// len x (index_bytes + 2 value_bytes) (Aj, Ax, x[Aj]) + value_bytes (y) bytes.
class SpmvCsrWork final : public SpmvWork {
public:
    SpmvCsrWork(SpmvRowOffsets offsets, std::uint64_t threads_per_block, SpmvCosts costs);
    [[nodiscard]] SpmvBlockSummary summarize(std::uint64_t block) const override;
    [[nodiscard]] std::uint64_t blocks() const override;
    [[nodiscard]] SpmvChainKernel chain_kernel() const override { return SpmvChainKernel::csr; }
    [[nodiscard]] std::shared_ptr<const BlockWork> with_costs(const SpmvCosts& costs) const override;
    [[nodiscard]] std::string describe() const override;
};

/// ELL kernel: thread t of block b handles row b x threads + t, every row padded to `width`
/// slots (rows longer than width keep their first `width` entries: HYB's ELL part). A warp of
/// 32 rows whose longest (clamped) row is m costs ell_instr_row + width x ell_instr_slot +
/// m x ell_instr_entry slots; each of its rows moves width x index_bytes + entries x
/// 2 value_bytes + value_bytes (y) bytes.
class SpmvEllWork final : public SpmvWork {
public:
    SpmvEllWork(SpmvRowOffsets offsets, std::uint64_t width, std::uint64_t threads_per_block, SpmvCosts costs,
                std::string label = "ell");
    [[nodiscard]] SpmvBlockSummary summarize(std::uint64_t block) const override;
    [[nodiscard]] std::uint64_t blocks() const override;
    [[nodiscard]] SpmvChainKernel chain_kernel() const override { return SpmvChainKernel::ell; }
    [[nodiscard]] std::shared_ptr<const BlockWork> with_costs(const SpmvCosts& costs) const override;
    [[nodiscard]] std::string describe() const override;
    [[nodiscard]] std::uint64_t width() const { return width_; }
    [[nodiscard]] const std::string& label() const { return label_; }

private:
    std::uint64_t width_;
    std::string label_;
};

/// COO kernel: thread t of block b handles non-zero b x threads + t (row-major order). Each
/// 32-entry warp costs coo_instr_warp slots and entries x (2 index_bytes + 2 value_bytes) + s x
/// 2 value_bytes bytes, s = the distinct rows its entries belong to (each segment's y is read and
/// written once).
class SpmvCooWork final : public SpmvWork {
public:
    SpmvCooWork(SpmvRowOffsets offsets, std::uint64_t threads_per_block, SpmvCosts costs, std::string label = "coo");
    [[nodiscard]] SpmvBlockSummary summarize(std::uint64_t block) const override;
    [[nodiscard]] std::uint64_t blocks() const override;
    [[nodiscard]] std::shared_ptr<const BlockWork> with_costs(const SpmvCosts& costs) const override;
    [[nodiscard]] SpmvChainKernel chain_kernel() const override { return SpmvChainKernel::coo; }
    [[nodiscard]] std::string describe() const override;
    /// Distinct rows holding the non-zeros [first, last) (last > first).
    [[nodiscard]] std::uint64_t distinct_rows(std::uint64_t first, std::uint64_t last) const;
    [[nodiscard]] const std::string& label() const { return label_; }

private:
    std::uint64_t row_of(std::uint64_t entry) const;
    std::vector<std::uint64_t> empty_before_;  ///< empty rows among rows [0, r)
    std::string label_;
};

/// Bell & Garland's HYB split width: the largest K such that at least max(breakeven, rows /
/// relative_speed) rows have K or more entries (0 when fewer rows than that exist).
std::uint64_t hyb_width(const std::vector<std::uint64_t>& offsets, double relative_speed, std::uint64_t breakeven);

/// Row offsets of what HYB leaves to COO: max(0, len - width) entries per row.
std::vector<std::uint64_t> hyb_coo_offsets(const std::vector<std::uint64_t>& offsets, std::uint64_t width);

}  // namespace gpusched::workloads
