// SpMV block work: per-block sums over the rows or non-zeros each block covers, nothing stored per block.
#include "gpusched/workloads/spmv_work.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "gpusched/workloads/latency_chains.h"
#include "gpusched/workloads/spec_numbers.h"
#include "warp_arithmetic.h"

namespace gpusched::workloads {

namespace {

constexpr double kScanSteps = 5;         // log2(32): the COO warp's segmented scan

void add_warp(SpmvBlockSummary& s, double slots, double bytes, double latency_cycles) {
    ++s.warps;
    s.total_slots += slots;
    s.max_slots = std::max(s.max_slots, slots);
    s.total_bytes += bytes;
    s.max_latency_cycles = std::max(s.max_latency_cycles, latency_cycles);
}

/// The CSR vector kernel's warp over a row of `len` entries (the PTX of
/// validation/runner/spmv_kernels.cu): lane l runs s_l = ceil((len - l) / 32) steps, s_l mod 4 in
/// the remainder loop, then s_l div 4 unrolled groups; the warp runs each loop as long as its
/// longest lane: lanes 0.. have s = ceil(len / 32) steps, the others (when len is not a multiple
/// of 32) s - 1.
double csr_warp_latency(const SpmvLatency& l, std::uint64_t len) {
    const std::uint64_t steps = ceil_div(len, kCudaWarpSize);
    std::uint64_t singles = steps % 4;
    if (steps > 0 && len % kCudaWarpSize != 0) singles = std::max(singles, (steps - 1) % 4);
    const std::uint64_t groups = steps / 4;
    return l.entry + l.exit + static_cast<double>(singles) * l.single + static_cast<double>(groups) * l.group;
}

/// The ELL kernel's warp (its PTX): width div 4 unrolled groups, then width mod 4 remainder steps;
/// a step or group with no slot below the warp's longest row `longest` loads indices only.
double ell_warp_latency(const SpmvLatency& l, std::uint64_t width, std::uint64_t longest) {
    const std::uint64_t groups = width / 4, singles = width % 4;
    const std::uint64_t full_groups = std::min(groups, ceil_div(longest, 4));
    const std::uint64_t full_singles = longest > 4 * groups ? std::min(singles, longest - 4 * groups) : 0;
    return l.entry + l.exit + static_cast<double>(full_groups) * l.group +
           static_cast<double>(groups - full_groups) * l.group_empty + static_cast<double>(full_singles) * l.single +
           static_cast<double>(singles - full_singles) * l.single_empty;
}

std::string shape(const SpmvWork& w) {
    return std::to_string(w.rows()) + " rows, " + std::to_string(w.nnz()) + " non-zeros, " +
           std::to_string(w.blocks()) + " blocks";
}

}  // namespace

SpmvWork::SpmvWork(SpmvRowOffsets offsets, std::uint64_t threads_per_block, SpmvCosts costs)
    : offsets_(std::move(offsets)), threads_(threads_per_block), costs_(costs) {
    if (!offsets_ || offsets_->empty() || threads_ == 0) throw std::logic_error("SpmvWork: no rows or no threads");
}

Time SpmvWork::duration(std::uint64_t block) const {
    // Spec parsing checked that the busiest possible warp fits in 2^63 ps.
    return instruction_time(summarize(block).max_slots, costs_.ns_per_instr).value_or(0);
}

int SpmvWork::active_warps(std::uint64_t block, int warps_per_block) const {
    return std::min(summarize(block).warps, warps_per_block);
}

std::optional<WarpWork> SpmvWork::warp_work(std::uint64_t block) const {
    const SpmvBlockSummary s = summarize(block);
    WarpWork w;
    if (s.warps == 0) return w;
    w.issue_slots = s.total_slots / s.warps;
    w.dram_bytes = s.total_bytes / s.warps;
    return w;
}

double SpmvWork::latency_bound_cycles(std::uint64_t block) const { return summarize(block).max_latency_cycles; }

namespace {
/// Whether the matrix (index and value per non-zero, a row offset per row) and x and y fit in L2.
bool matrix_in_l2(const SpmvWork& work, const hw::GpuSpec& gpu) {
    const SpmvCosts& c = work.costs();
    const double bytes = static_cast<double>(work.nnz()) * (c.index_bytes + c.value_bytes) +
                         static_cast<double>(work.rows()) * (c.index_bytes + 2 * c.value_bytes);
    return gpu.l2_bytes && bytes <= static_cast<double>(*gpu.l2_bytes);
}

/// The chain's segments as cycles per warp segment (a group: its four steps).
SpmvLatency spmv_latency(const SpmvChain& chain) {
    SpmvLatency l;
    l.entry = chain.entry.cycles_per_step;
    l.exit = chain.exit.cycles_per_step;
    l.single = chain.single.cycles_per_step;
    l.single_empty = chain.single_empty.cycles_per_step;
    l.group = chain.group.cycles_per_step * chain.group.unroll;
    l.group_empty = chain.group_empty.cycles_per_step * chain.group_empty.unroll;
    return l;
}
}  // namespace

std::shared_ptr<const BlockWork> SpmvWork::bind(const GpuContext& context) const {
    if (costs_.iter_latency_given || costs_.derived) return nullptr;
    GpuNumbers numbers(context.gpu, "spmv", "iter_latency_cycles");
    SpmvCosts costs = costs_;
    costs.derived = spmv_latency(spmv_chain(numbers, chain_kernel(), matrix_in_l2(*this, context.gpu)));
    return with_costs(costs);
}

WorkDerivation SpmvWork::derivation(const GpuContext& context) const {
    WorkDerivation out;
    if (costs_.iter_latency_given) {
        out.steps.push_back("latency floor = steps x iter_latency_cycles (given: " +
                            format_spec_number(costs_.iter_latency_cycles) + ")");
        return out;
    }
    GpuNumbers numbers(context.gpu, "spmv", "iter_latency_cycles");
    const bool in_l2 = matrix_in_l2(*this, context.gpu);
    const SpmvChain chain = spmv_chain(numbers, chain_kernel(), in_l2);
    const bool coo = chain_kernel() == SpmvChainKernel::coo;
    out.steps.push_back(std::string("matrix and vectors ") + (in_l2 ? "fit in L2" : "do not fit in L2: the matrix from DRAM"));
    out.steps.push_back(describe_step_chain(chain.entry, "entry"));
    out.steps.push_back(describe_step_chain(chain.single, coo ? "scan step" : "remainder step"));
    if (!coo) out.steps.push_back(describe_step_chain(chain.group, "step of the 4x unrolled loop"));
    if (chain_kernel() == SpmvChainKernel::ell) {
        out.steps.push_back(describe_step_chain(chain.single_empty, "remainder step of padding"));
        out.steps.push_back(describe_step_chain(chain.group_empty, "unrolled step of padding"));
    }
    out.steps.push_back(describe_step_chain(chain.exit, "exit"));
    const SpmvLatency l = spmv_latency(chain);
    std::string floor = "latency floor of a warp = " + format_spec_number(l.entry + l.exit) + " + ";
    if (coo)
        floor += "5 scan steps x " + format_spec_number(l.single);
    else if (chain_kernel() == SpmvChainKernel::csr)
        floor += "remainder steps x " + format_spec_number(l.single) + " + unrolled groups x " + format_spec_number(l.group) +
                 " (a row of s = ceil(len/32) steps: s mod 4 remainder steps, 3 when a shorter lane's s - 1 has them, and s div 4 groups)";
    else
        floor += "(width mod 4) remainder steps x " + format_spec_number(l.single) + " + (width div 4) groups x " +
                 format_spec_number(l.group) + "; a step or group past the warp's longest row costs " +
                 format_spec_number(l.single_empty) + " / " + format_spec_number(l.group_empty);
    out.steps.push_back(floor + " cycles (derived from the GPU); the block's longest warp");
    out.gpu_numbers = numbers.used();
    return out;
}

std::shared_ptr<const BlockWork> SpmvCsrWork::with_costs(const SpmvCosts& costs) const {
    return std::make_shared<const SpmvCsrWork>(offsets_, threads_, costs);
}

std::shared_ptr<const BlockWork> SpmvEllWork::with_costs(const SpmvCosts& costs) const {
    return std::make_shared<const SpmvEllWork>(offsets_, width_, threads_, costs, label_);
}

std::shared_ptr<const BlockWork> SpmvCooWork::with_costs(const SpmvCosts& costs) const {
    auto copy = std::make_shared<SpmvCooWork>(*this);
    copy->costs_ = costs;
    return copy;
}

// --- CSR ---

SpmvCsrWork::SpmvCsrWork(SpmvRowOffsets offsets, std::uint64_t threads_per_block, SpmvCosts costs)
    : SpmvWork(std::move(offsets), threads_per_block, costs) {
    if (threads_ % kCudaWarpSize != 0) throw std::logic_error("SpmvCsrWork: threads per block must be whole warps");
}

std::uint64_t SpmvCsrWork::blocks() const { return ceil_div(rows(), threads_ / kCudaWarpSize); }

SpmvBlockSummary SpmvCsrWork::summarize(std::uint64_t block) const {
    const std::uint64_t per_block = threads_ / kCudaWarpSize;
    const std::uint64_t first = block * per_block;
    const std::uint64_t last = std::min(first + per_block, rows());
    SpmvBlockSummary s;
    const SpmvCosts& c = costs_;
    for (std::uint64_t r = first; r < last; ++r) {
        const std::uint64_t len = row_length(r);
        const auto steps = static_cast<double>(ceil_div(len, kCudaWarpSize));
        const double bytes =
            c.index_bytes + static_cast<double>(len) * (c.index_bytes + 2 * c.value_bytes) + c.value_bytes;
        add_warp(s, c.csr_instr_row + steps * c.csr_instr_iter, bytes,
                 c.derived ? csr_warp_latency(*c.derived, len) : steps * c.iter_latency_cycles);
    }
    return s;
}

std::string SpmvCsrWork::describe() const { return "spmv csr (vector, one warp per row): " + shape(*this); }

// --- ELL ---

SpmvEllWork::SpmvEllWork(SpmvRowOffsets offsets, std::uint64_t width, std::uint64_t threads_per_block,
                         SpmvCosts costs, std::string label)
    : SpmvWork(std::move(offsets), threads_per_block, costs), width_(width), label_(std::move(label)) {}

std::uint64_t SpmvEllWork::blocks() const { return ceil_div(rows(), threads_); }

SpmvBlockSummary SpmvEllWork::summarize(std::uint64_t block) const {
    const std::uint64_t first = block * threads_;
    const std::uint64_t last = std::min(first + threads_, rows());
    SpmvBlockSummary s;
    const SpmvCosts& c = costs_;
    const auto width = static_cast<double>(width_);
    for (std::uint64_t w = first; w < last; w += kCudaWarpSize) {
        const std::uint64_t end = std::min(w + kCudaWarpSize, last);
        std::uint64_t longest = 0, entries = 0;
        for (std::uint64_t r = w; r < end; ++r) {
            const std::uint64_t len = std::min(row_length(r), width_);
            longest = std::max(longest, len);
            entries += len;
        }
        const double slots = c.ell_instr_row + width * c.ell_instr_slot + static_cast<double>(longest) * c.ell_instr_entry;
        const double bytes = static_cast<double>(end - w) * (width * c.index_bytes + c.value_bytes) +
                             static_cast<double>(entries) * 2 * c.value_bytes;
        add_warp(s, slots, bytes, c.derived ? ell_warp_latency(*c.derived, width_, longest) : width * c.iter_latency_cycles);
    }
    return s;
}

std::string SpmvEllWork::describe() const {
    return "spmv " + label_ + " (one thread per row, width " + std::to_string(width_) + "): " + shape(*this);
}

// --- COO ---

SpmvCooWork::SpmvCooWork(SpmvRowOffsets offsets, std::uint64_t threads_per_block, SpmvCosts costs, std::string label)
    : SpmvWork(std::move(offsets), threads_per_block, costs), label_(std::move(label)) {
    empty_before_.assign(rows() + 1, 0);
    for (std::uint64_t r = 0; r < rows(); ++r) empty_before_[r + 1] = empty_before_[r] + (row_length(r) == 0);
}

std::uint64_t SpmvCooWork::blocks() const { return ceil_div(nnz(), threads_); }

std::uint64_t SpmvCooWork::row_of(std::uint64_t entry) const {
    // The row r with offsets[r] <= entry < offsets[r + 1]: the last offset <= entry, skipping empty rows.
    const auto it = std::upper_bound(offsets_->begin(), offsets_->end(), entry);
    return static_cast<std::uint64_t>(it - offsets_->begin()) - 1;
}

std::uint64_t SpmvCooWork::distinct_rows(std::uint64_t first, std::uint64_t last) const {
    const std::uint64_t a = row_of(first), b = row_of(last - 1);
    return (b - a + 1) - (empty_before_[b + 1] - empty_before_[a]);
}

SpmvBlockSummary SpmvCooWork::summarize(std::uint64_t block) const {
    const std::uint64_t first = block * threads_;
    const std::uint64_t last = std::min(first + threads_, nnz());
    SpmvBlockSummary s;
    const SpmvCosts& c = costs_;
    for (std::uint64_t w = first; w < last; w += kCudaWarpSize) {
        const std::uint64_t end = std::min(w + kCudaWarpSize, last);
        const double bytes = static_cast<double>(end - w) * 2 * (c.index_bytes + c.value_bytes) +
                             static_cast<double>(distinct_rows(w, end)) * 2 * c.value_bytes;
        add_warp(s, c.coo_instr_warp, bytes,
                 c.derived ? c.derived->entry + kScanSteps * c.derived->single + c.derived->exit
                           : kScanSteps * c.iter_latency_cycles);
    }
    return s;
}

std::string SpmvCooWork::describe() const {
    return "spmv " + label_ + " (one thread per non-zero, segmented reduction): " + shape(*this);
}

// --- HYB ---

std::uint64_t hyb_width(const std::vector<std::uint64_t>& offsets, double relative_speed, std::uint64_t breakeven) {
    const std::uint64_t rows = offsets.size() - 1;
    const double needed = std::max(static_cast<double>(breakeven), static_cast<double>(rows) / relative_speed);
    // at_least[k] = rows with k or more entries (k up to the longest row).
    std::vector<std::uint64_t> at_least(1, 0);
    for (std::uint64_t r = 0; r < rows; ++r) {
        const std::uint64_t len = offsets[r + 1] - offsets[r];
        if (len + 1 >= at_least.size()) at_least.resize(len + 2, 0);
        ++at_least[len];
    }
    for (std::size_t k = at_least.size() - 1; k > 0; --k) at_least[k - 1] += at_least[k];
    std::uint64_t width = 0;
    while (width + 1 < at_least.size() && static_cast<double>(at_least[width + 1]) >= needed) ++width;
    return width;
}

std::vector<std::uint64_t> hyb_coo_offsets(const std::vector<std::uint64_t>& offsets, std::uint64_t width) {
    std::vector<std::uint64_t> out(offsets.size(), 0);
    for (std::size_t r = 0; r + 1 < offsets.size(); ++r) {
        const std::uint64_t len = offsets[r + 1] - offsets[r];
        out[r + 1] = out[r] + (len > width ? len - width : 0);
    }
    return out;
}

}  // namespace gpusched::workloads
