// ApspWork: per-category answers for the APSP kernels' blocks; nothing stored per block.
#include "gpusched/workloads/apsp_work.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "gpusched/workloads/spec_numbers.h"

namespace gpusched::workloads {

ApspWork::ApspWork(std::string kernel, ApspGrid grid, ApspWarpCost cost, std::uint64_t launches, Time fixed_duration,
                   ApspCostOnGpu on_gpu)
    : kernel_(std::move(kernel)),
      grid_(grid),
      cost_(cost),
      launches_(launches),
      fixed_duration_(fixed_duration),
      on_gpu_(std::move(on_gpu)) {}

Time ApspWork::duration(std::uint64_t block) const {
    (void)block;
    return fixed_duration_;
}

int ApspWork::active_warps(std::uint64_t block, int warps_per_block) const {
    if (cost_.every_warp_active) return std::max(warps_per_block, 0);
    return grid_.active_warps(grid_.category(block), warps_per_block);
}

std::optional<WarpWork> ApspWork::warp_work(std::uint64_t block) const {
    const ApspGrid::Category c = grid_.category(block);
    const int warps = cost_.every_warp_active ? grid_.active_warps32(ApspGrid::Category::full) : grid_.active_warps32(c);
    // bytes per thread x threads / warps, in this order (the results of runs without L2 hits
    // depend on the rounding).
    const auto per_warp = [&](double bytes_per_thread) {
        return warps == 0 ? 0
                          : bytes_per_thread * static_cast<double>(grid_.active_threads(c)) / static_cast<double>(warps);
    };
    WarpWork w;
    w.issue_slots = cost_.issue_slots;
    w.latency_bound = 0;
    w.dram_bytes = per_warp(cost_.dram_bytes_per_thread);
    w.l2_bytes = per_warp(cost_.l2_bytes_per_thread);
    w.l1_wavefronts = cost_.l1_wavefronts;
    w.l1_by_block = cost_.every_warp_active;  // Min-plus: barriers around every tile
    return w;
}

std::shared_ptr<const BlockWork> ApspWork::bind(const GpuContext& context) const {
    if (!on_gpu_) return nullptr;
    GpuNumbers numbers(context.gpu, kernel_, kernel_ == "apsp-fw" ? "latency_cycles" : "tile_latency_cycles");
    std::vector<std::string> steps;
    const auto cost = on_gpu_(context, numbers, steps);
    if (!cost) return nullptr;
    return std::make_shared<const ApspWork>(kernel_, grid_, *cost, launches_, fixed_duration_);
}

WorkDerivation ApspWork::derivation(const GpuContext& context) const {
    WorkDerivation out;
    if (!on_gpu_) return out;
    GpuNumbers numbers(context.gpu, kernel_, kernel_ == "apsp-fw" ? "latency_cycles" : "tile_latency_cycles");
    if (!on_gpu_(context, numbers, out.steps))
        out.steps.push_back("the GPU gives no L2, latency or L1 keys: the paper's counts (every access to DRAM, no latency)");
    out.gpu_numbers = numbers.used();
    return out;
}

double ApspWork::latency_bound_cycles(std::uint64_t block) const {
    (void)block;
    return cost_.latency_cycles;
}

std::string ApspWork::describe() const {
    const std::string w = std::to_string(grid_.width());
    std::string out = kernel_ + " n=" + std::to_string(grid_.n()) + " block=" + std::to_string(grid_.block_size()) +
                      ": " + w + "x" + w + " grid, " + std::to_string(launches_) +
                      (launches_ == 1 ? " launch" : " launches") + "; per warp " +
                      format_spec_number(cost_.issue_slots) + " issue slots, " +
                      format_spec_number((cost_.dram_bytes_per_thread + cost_.l2_bytes_per_thread) * kApspWarpSize) +
                      " B";
    if (cost_.l2_bytes_per_thread > 0)
        out += " (" + format_spec_number(cost_.l2_bytes_per_thread * kApspWarpSize) + " B L2 hits)";
    if (cost_.latency_cycles > 0) out += ", latency " + format_spec_number(cost_.latency_cycles) + " cycles";
    return out;
}

std::uint64_t apsp_launch_count(const KernelLaunch& launch) {
    const auto* work = dynamic_cast<const ApspWork*>(launch.work.get());
    if (work == nullptr) throw std::logic_error("apsp_launch_count: the launch's work is not ApspWork");
    return work->launches();
}

std::vector<SpecKeyInfo> apsp_common_key_info() {
    return {
        {"p_min", "P", "probability in [0, 1] that a thread finds a shorter path and writes D and P (default 0.5)"},
        {"elem_bytes", "B", "bytes per element of D and P, 1..1024 (default 4: 32-bit distances and indices)"},
        {"ns_per_instr", "NS", "`fixed` model only: nanoseconds per warp-instruction, 0..10^6 (default 1)"},
    };
}

ApspCommonKeys parse_apsp_common_keys(SpecArgs& args) {
    ApspCommonKeys k;
    k.p_min = spec_number(args, "p_min", 0, 1, k.p_min);
    k.elem_bytes = static_cast<double>(args.optional_integer("elem_bytes", 1, 1024).value_or(4));
    k.ns_per_instr = spec_number(args, "ns_per_instr", 0, 1e6, k.ns_per_instr);
    return k;
}

std::shared_ptr<const ApspWork> make_apsp_work(SpecArgs& args, ApspGrid grid, ApspWarpCost cost,
                                               std::uint64_t launches, double ns_per_instr, ApspCostOnGpu on_gpu) {
    const auto duration = instruction_time(cost.issue_slots, ns_per_instr);
    if (!duration)
        args.fail(args.has("ns_per_instr") ? "ns_per_instr" : "n",
                  format_spec_number(cost.issue_slots) + " issue slots x " + format_spec_number(ns_per_instr) +
                      " ns per instruction is beyond the longest duration (2^63 ps); use a smaller n or ns_per_instr");
    return std::make_shared<const ApspWork>(args.kernel(), grid, cost, launches, *duration, std::move(on_gpu));
}

}  // namespace gpusched::workloads
