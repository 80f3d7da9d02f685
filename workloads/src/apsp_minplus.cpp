// The `apsp-minplus` generator: ceil(log2(n-1)) launches of the tiled Min-plus kernel.
#include "gpusched/workloads/apsp_minplus.h"

#include <bit>

#include "gpusched/workloads/kernel_spec.h"
#include "gpusched/workloads/spec_numbers.h"

namespace gpusched::workloads {

std::uint64_t minplus_steps(std::uint64_t n) {
    if (n <= 2) return 1;
    // ceil(log2(m)) for m >= 1 is the bit width of m - 1.
    return static_cast<std::uint64_t>(std::bit_width(n - 2));
}

ApspWarpCost minplus_warp_cost(const ApspGrid& grid, const MinplusKeys& keys, const ApspCommonKeys& common) {
    const auto gw = static_cast<double>(grid.width());
    const auto bs = static_cast<double>(grid.block_size());
    ApspWarpCost cost;
    cost.issue_slots = gw * (bs * keys.instr_per_step + keys.instr_per_tile) + 2 + 3 * common.p_min;
    cost.latency_cycles = gw * keys.tile_latency_cycles;
    cost.dram_bytes_per_thread = common.elem_bytes * ((1 + 2 * gw + common.p_min) + 2 * common.p_min);
    return cost;
}

namespace {

void build_minplus(SpecArgs& args, KernelLaunch& launch) {
    const ApspGrid grid = parse_apsp_grid(args, launch, 2, kMaxGridDim);
    MinplusKeys keys;
    keys.instr_per_step = spec_number(args, "instr_per_step", 0, 1e6, keys.instr_per_step);
    keys.instr_per_tile = spec_number(args, "instr_per_tile", 0, 1e6, keys.instr_per_tile);
    keys.tile_latency_cycles = spec_number(args, "tile_latency_cycles", 0, 1e9, keys.tile_latency_cycles);
    const ApspCommonKeys common = parse_apsp_common_keys(args);
    const auto steps = static_cast<std::uint64_t>(
        args.optional_integer("steps", 1, static_cast<std::int64_t>(kMaxSpecApplicationLaunches))
            .value_or(static_cast<std::int64_t>(minplus_steps(grid.n()))));
    // Alg. 2 line 5: two BS x BS tiles of D in shared memory (D1, D2).
    if (!args.has("static_smem"))
        launch.static_shared_bytes = static_cast<std::int64_t>(2 * std::uint64_t{grid.block_size()} *
                                                               grid.block_size() *
                                                               static_cast<std::uint64_t>(common.elem_bytes));
    launch.work = make_apsp_work(args, grid, minplus_warp_cost(grid, keys, common), steps, common.ns_per_instr);
}

}  // namespace

KernelGeneratorInfo apsp_minplus_generator() {
    KernelGeneratorInfo info;
    info.name = "apsp-minplus";
    info.description = "all-pairs shortest paths, Min-plus: ceil(log2(n-1)) launches of a tiled ceil(n/BS)^2 grid";
    info.keys = {
        {"n", "N", "graph nodes, the matrix is N x N (required), 2..2^31-1"},
        {"block", "BS | BSxBS", "tile side: blocks of BS x BS threads (required), BS 1..1024"},
        {"steps", "S", "launches, 1..1000000 (default max(1, ceil(log2(n-1))), eq. 1)"},
        {"instr_per_step", "I", "warp-instructions per min-plus step k (Alg. 2 lines 7-8), 0..10^6 (default 4)"},
        {"instr_per_tile", "I", "other warp-instructions per tile (loads, barriers, line 9), 0..10^6 (default 10)"},
        {"tile_latency_cycles", "C", "latency-bound cycles per tile per warp, 0..10^9 (default 0: none)"},
    };
    for (auto& key : apsp_common_key_info()) info.keys.push_back(key);
    info.example = "apsp-minplus:n=500,block=16";
    info.build = build_minplus;
    info.launches = apsp_launch_count;
    return info;
}

}  // namespace gpusched::workloads
