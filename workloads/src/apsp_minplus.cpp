// The `apsp-minplus` generator: ceil(log2(n-1)) launches of the tiled Min-plus kernel.
#include "gpusched/workloads/apsp_minplus.h"

#include <algorithm>
#include <bit>
#include <cmath>

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

std::optional<ApspWarpCost> minplus_cost_on_gpu(const ApspGrid& grid, const MinplusKeys& keys,
                                                const ApspCommonKeys& common, const GpuContext& context,
                                                GpuNumbers& numbers, std::vector<std::string>& steps) {
    const hw::GpuSpec& gpu = context.gpu;
    const bool l2 = gpu.l2_bytes && gpu.l2_bandwidth_gbps;
    const bool latency = (gpu.l2_hit_latency_cycles || gpu.dram_latency_cycles) && !keys.tile_latency_given;
    const bool l1 = gpu.l1_wavefronts_per_cycle.has_value();
    if (!l2 && !latency && !l1) return std::nullopt;
    ApspWarpCost cost = minplus_warp_cost(grid, keys, common);
    // Alg. 2 line 5 fills each shared tile with one element per thread, and lines 6 and 10 are
    // barriers: a thread outside the matrix (an edge block's extra rows or columns) still loads
    // its element of the other tile and waits at both barriers, so every warp runs every tile.
    cost.every_warp_active = true;
    if (grid.n() % grid.block_size() != 0)
        steps.push_back("edge blocks: all " + std::to_string(grid.block_size() * grid.block_size()) +
                        " threads run the tile loop (they fill the shared tiles and pass the barriers); only the "
                        "final stores are limited to the matrix");
    const auto gw = static_cast<double>(grid.width());
    const auto n = static_cast<double>(grid.n());
    const double bs = grid.block_size();
    const double e = common.elem_bytes;
    const double p = common.p_min;
    double miss_row = 1, miss_col = 1, miss_other = 1;  // fractions of reads that go to DRAM
    if (l2) {
        numbers.need("memory.l2_bandwidth_gbps");
        if (2 * n * n * e <= static_cast<double>(*gpu.l2_bytes)) {
            miss_row = miss_col = miss_other = 0;
        } else {
            miss_row = 1 / gw;
            miss_col = 1 / std::max(1.0, static_cast<double>(context.resident_blocks) / gw);
        }
        const double other = (1 + p) + 2 * p;  // line 3 and line 11's reads and writes
        cost.dram_bytes_per_thread = e * (miss_other * other + gw * (miss_row + miss_col));
        cost.l2_bytes_per_thread = e * ((1 - miss_other) * other + gw * (2 - miss_row - miss_col));
        steps.push_back("L2: D and P take " + format_spec_number(2 * n * n * e) + " B of " +
                        format_spec_number(static_cast<double>(*gpu.l2_bytes)) + "; DRAM fraction of tile reads row " +
                        format_spec_number(miss_row) + ", column " + format_spec_number(miss_col));
    }
    // A warp's global load touches one 128-byte line per tile row it covers (per 128 bytes of it).
    const double warp = kApspWarpSize;
    const double rows_per_warp = bs >= warp ? 1 : std::ceil(warp / bs);
    const double load_wavefronts = rows_per_warp * std::ceil(std::min(bs, warp) * e / 128);
    const double fill_wavefronts = 2 + 2 * load_wavefronts;  // line 5: two shared stores, two global loads
    const double tile_wavefronts = 2 * bs + fill_wavefronts;
    const std::optional<double> wavefronts_per_cycle =
        l1 ? numbers.maybe("execution.l1_wavefronts_per_cycle") : std::nullopt;
    if (l1) cost.l1_wavefronts = gw * tile_wavefronts + load_wavefronts * (1 + 3 * p);
    if (latency) {
        const double block_warps = std::ceil(bs * bs / warp);
        const double l2_latency = numbers.l2_hit_latency();
        const double dram_latency = numbers.dram_latency();
        const double alu = numbers.need("execution.alu_latency_cycles");
        const double shared = numbers.need("execution.shared_memory_latency_cycles");
        const double barrier = numbers.need("execution.barrier_cycles") +
                               block_warps * numbers.need("execution.barrier_cycles_per_warp");
        const double fill_extra = numbers.need("memory.tile_fill_extra_cycles");
        const double both_hit = (1 - miss_row) * (1 - miss_col);
        // Line 5 up to the barrier: the loads, the fill's measured extra and the block's load and store wavefronts.
        double tile_wait = both_hit * l2_latency + (1 - both_hit) * dram_latency + fill_extra;
        if (l1) tile_wait += block_warps * fill_wavefronts / *wavefronts_per_cycle;
        const double other_wait = (1 - miss_other) * l2_latency + miss_other * dram_latency;
        // Line 5's stores, the barrier of line 6, line 7's first shared load, the barrier of line 10.
        const double sync = shared + 2 * barrier;
        // Lines 5-8 alone: one warp's dependent path (SASS: the running minimum, line 9's compare
        // and the next loads' addresses, each with the interleaved argmin select's issue slot, and
        // the shared loads the minimum waits for); the block's issue slots and L1 wavefronts at
        // the SM's rates; one warp's slots at issue_width.
        const double tile_slots = bs * keys.instr_per_step + keys.instr_per_tile;
        const double path = std::max(0.0, keys.exposed_shared_loads - 1) * shared +
                            (bs + keys.address_chain_instr) * (alu + 1.0 / gpu.issue_width);
        double alone = std::max({path, tile_slots / gpu.issue_width, block_warps * tile_slots / gpu.issue_slots_per_cycle()});
        if (l1) alone = std::max(alone, block_warps * 2 * bs / *wavefronts_per_cycle);
        // Line 3's load before the loop; line 11's load of P(gx, kmin) before its stores.
        cost.latency_cycles = gw * (tile_wait + sync + alone) + (1 + p) * other_wait;
        steps.push_back("per tile: loads and fill " + format_spec_number(tile_wait) + " + shared load and two barriers " +
                        format_spec_number(sync) + " + lines 5-8 alone " + format_spec_number(alone) +
                        " (dependent path: " + format_spec_number(std::max(0.0, keys.exposed_shared_loads - 1)) +
                        " shared loads and " + format_spec_number(bs + keys.address_chain_instr) +
                        " ALU instructions = " + format_spec_number(path) + ") cycles");
        steps.push_back("latency floor = " + format_spec_number(gw) + " tiles x per tile + lines 3 and 11 = " +
                        format_spec_number(cost.latency_cycles) + " cycles (derived from the GPU)");
    } else {
        steps.push_back("latency floor = " + format_spec_number(gw) + " tiles x tile_latency_cycles = " +
                        format_spec_number(cost.latency_cycles) + " cycles" +
                        (keys.tile_latency_given ? " (tile_latency_cycles given)" : " (the GPU gives no memory latency)"));
    }
    return cost;
}

namespace {

void build_minplus(SpecArgs& args, KernelLaunch& launch) {
    const ApspGrid grid = parse_apsp_grid(args, launch, 2, kMaxGridDim);
    MinplusKeys keys;
    keys.instr_per_step = spec_number(args, "instr_per_step", 0, 1e6, keys.instr_per_step);
    keys.instr_per_tile = spec_number(args, "instr_per_tile", 0, 1e6, keys.instr_per_tile);
    keys.tile_latency_given = args.has("tile_latency_cycles");
    keys.tile_latency_cycles = spec_number(args, "tile_latency_cycles", 0, 1e9, keys.tile_latency_cycles);
    keys.exposed_shared_loads = spec_number(args, "exposed_shared_loads", 0, 1e6, keys.exposed_shared_loads);
    keys.address_chain_instr = spec_number(args, "address_chain_instr", 0, 1e6, keys.address_chain_instr);
    const ApspCommonKeys common = parse_apsp_common_keys(args);
    const auto steps = static_cast<std::uint64_t>(
        args.optional_integer("steps", 1, static_cast<std::int64_t>(kMaxSpecApplicationLaunches))
            .value_or(static_cast<std::int64_t>(minplus_steps(grid.n()))));
    // Alg. 2 line 5: two BS x BS tiles of D in shared memory (D1, D2).
    if (!args.has("static_smem"))
        launch.static_shared_bytes = static_cast<std::int64_t>(2 * std::uint64_t{grid.block_size()} *
                                                               grid.block_size() *
                                                               static_cast<std::uint64_t>(common.elem_bytes));
    launch.work = make_apsp_work(args, grid, minplus_warp_cost(grid, keys, common), steps, common.ns_per_instr,
                                 [grid, keys, common](const GpuContext& context, GpuNumbers& numbers,
                                                      std::vector<std::string>& steps) {
                                     return minplus_cost_on_gpu(grid, keys, common, context, numbers, steps);
                                 });
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
        {"tile_latency_cycles", "C", "latency-bound cycles per tile per warp, 0..10^9 (default: derived from the GPU's latencies)"},
        {"exposed_shared_loads", "E", "shared-load latencies one warp waits out per tile (SASS), 0..10^6 (default 3)"},
        {"address_chain_instr", "A", "dependent address instructions before a tile's last global load (SASS), 0..10^6 (default 4)"},
    };
    for (auto& key : apsp_common_key_info()) info.keys.push_back(key);
    info.example = "apsp-minplus:n=500,block=16";
    info.build = build_minplus;
    info.launches = apsp_launch_count;
    return info;
}

}  // namespace gpusched::workloads
