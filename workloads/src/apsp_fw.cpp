// The `apsp-fw` generator: n launches of the Floyd-Warshall step kernel on the tiled n x n grid.
#include "gpusched/workloads/apsp_fw.h"

#include <algorithm>
#include <cmath>

#include "gpusched/workloads/kernel_spec.h"
#include "gpusched/workloads/spec_numbers.h"

namespace gpusched::workloads {

ApspWarpCost floyd_warshall_warp_cost(const FloydWarshallKeys& keys, const ApspCommonKeys& common) {
    ApspWarpCost cost;
    cost.issue_slots = keys.instr_per_step + 3 + 3 * common.p_min;
    cost.latency_cycles = keys.latency_cycles;
    cost.dram_bytes_per_thread = common.elem_bytes * ((2 + common.p_min) + 2 * common.p_min);
    return cost;
}

std::optional<ApspWarpCost> floyd_warshall_cost_on_gpu(const ApspGrid& grid, const FloydWarshallKeys& keys,
                                                       const ApspCommonKeys& common, const GpuContext& context,
                                                       GpuNumbers& numbers, std::vector<std::string>& steps) {
    const hw::GpuSpec& gpu = context.gpu;
    const bool l2 = gpu.l2_bytes && gpu.l2_bandwidth_gbps;
    const bool latency = (gpu.l2_hit_latency_cycles || gpu.dram_latency_cycles) && !keys.latency_given;
    const bool l1 = gpu.l1_wavefronts_per_cycle.has_value();
    if (!l2 && !latency && !l1) return std::nullopt;
    ApspWarpCost cost = floyd_warshall_warp_cost(keys, common);
    const auto n = static_cast<double>(grid.n());
    const double bs = grid.block_size();
    const double e = common.elem_bytes;
    const double p = common.p_min;
    double miss_own = 1;  // the own element and the writes; row and column k always hit
    if (l2) {
        numbers.need("memory.l2_bandwidth_gbps");
        if (2 * n * n * e <= static_cast<double>(*gpu.l2_bytes)) miss_own = 0;
        const double own = 1 + 2 * p;   // D(gx, gy), and the stores of D and P
        const double shared = 1 + p;    // D(gx, k) or D(k, gy), and P(k, gy)
        cost.dram_bytes_per_thread = e * own * miss_own;
        cost.l2_bytes_per_thread = e * (shared + own * (1 - miss_own));
    }
    const double warp = kApspWarpSize;
    const double rows = bs >= warp ? 1 : std::ceil(warp / bs);         // tile rows in one warp
    const double lines = std::ceil(std::min(bs, warp) * e / 128);      // lines per tile row
    // Line 3: D(gx, k) (one element per row), D(k, gy) (one row), D(gx, gy); lines 4-5 with
    // p_min: store D, load P(k, gy), store P.
    if (l1) numbers.need("execution.l1_wavefronts_per_cycle");
    if (l1) cost.l1_wavefronts = rows + lines + rows * lines + p * (lines + 2 * rows * lines);
    if (latency) {
        const double l2_latency = numbers.l2_hit_latency();
        const double wait = miss_own > 0 ? numbers.dram_latency() : l2_latency;
        // Line 5's load of P(k, gy) depends on line 4's compare; a warp issues it, and waits for
        // it before its stores, when any of its threads found a shorter path (SIMT: the branch is
        // taken by the warp if one lane takes it): 1 - (1 - p_min)^lanes.
        const double lanes = std::min(warp, bs * bs);
        const double p_warp = 1 - std::pow(1 - p, lanes);
        cost.latency_cycles = wait + p_warp * l2_latency + cost.issue_slots / gpu.issue_width;
        steps.push_back("latency floor = line 3's loads " + format_spec_number(wait) + " + (1 - (1 - p_min)^" +
                        format_spec_number(lanes) + ") x line 5's load " + format_spec_number(p_warp * l2_latency) +
                        " + one warp's issue slots " +
                        format_spec_number(cost.issue_slots / gpu.issue_width) + " = " +
                        format_spec_number(cost.latency_cycles) + " cycles (derived from the GPU)");
    } else {
        steps.push_back("latency floor = latency_cycles = " + format_spec_number(cost.latency_cycles) + " cycles" +
                        (keys.latency_given ? " (given)" : " (the GPU gives no memory latency)"));
    }
    return cost;
}

namespace {

void build_fw(SpecArgs& args, KernelLaunch& launch) {
    // One launch per k (Alg. 3 line 2), so n is bounded by the application's launch limit.
    const ApspGrid grid = parse_apsp_grid(args, launch, 1, static_cast<std::int64_t>(kMaxSpecApplicationLaunches));
    FloydWarshallKeys keys;
    keys.instr_per_step = spec_number(args, "instr_per_step", 0, 1e6, keys.instr_per_step);
    keys.latency_given = args.has("latency_cycles");
    keys.latency_cycles = spec_number(args, "latency_cycles", 0, 1e9, keys.latency_cycles);
    const ApspCommonKeys common = parse_apsp_common_keys(args);
    const auto steps = static_cast<std::uint64_t>(
        args.optional_integer("steps", 1, static_cast<std::int64_t>(kMaxSpecApplicationLaunches))
            .value_or(static_cast<std::int64_t>(grid.n())));
    launch.work = make_apsp_work(args, grid, floyd_warshall_warp_cost(keys, common), steps, common.ns_per_instr,
                                 [grid, keys, common](const GpuContext& context, GpuNumbers& numbers,
                                                      std::vector<std::string>& steps) {
                                     return floyd_warshall_cost_on_gpu(grid, keys, common, context, numbers, steps);
                                 });
}

}  // namespace

KernelGeneratorInfo apsp_fw_generator() {
    KernelGeneratorInfo info;
    info.name = "apsp-fw";
    info.description = "all-pairs shortest paths, Floyd-Warshall in global memory: n launches of a ceil(n/BS)^2 grid";
    info.keys = {
        {"n", "N", "graph nodes, the matrix is N x N and there are N launches (required), 1..1000000"},
        {"block", "BS | BSxBS", "tile side: blocks of BS x BS threads (required), BS 1..1024"},
        {"steps", "S", "launches, 1..1000000 (default n, eq. 19)"},
        {"instr_per_step", "I",
         "warp-instructions of the add and compare (Alg. 4 line 3), 0..10^6 (default 2, eq. 22)"},
        {"latency_cycles", "C", "latency-bound cycles per warp, 0..10^9 (default: derived from the GPU's latencies)"},
    };
    for (auto& key : apsp_common_key_info()) info.keys.push_back(key);
    info.example = "apsp-fw:n=500,block=16";
    info.build = build_fw;
    info.launches = apsp_launch_count;
    return info;
}

}  // namespace gpusched::workloads
