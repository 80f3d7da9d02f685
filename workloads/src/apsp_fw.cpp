// The `apsp-fw` generator: n launches of the Floyd-Warshall step kernel on the tiled n x n grid.
#include "gpusched/workloads/apsp_fw.h"

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

namespace {

void build_fw(SpecArgs& args, KernelLaunch& launch) {
    // One launch per k (Alg. 3 line 2), so n is bounded by the application's launch limit.
    const ApspGrid grid = parse_apsp_grid(args, launch, 1, static_cast<std::int64_t>(kMaxSpecApplicationLaunches));
    FloydWarshallKeys keys;
    keys.instr_per_step = spec_number(args, "instr_per_step", 0, 1e6, keys.instr_per_step);
    keys.latency_cycles = spec_number(args, "latency_cycles", 0, 1e9, keys.latency_cycles);
    const ApspCommonKeys common = parse_apsp_common_keys(args);
    launch.work = make_apsp_work(args, grid, floyd_warshall_warp_cost(keys, common), grid.n(), common.ns_per_instr);
}

}  // namespace

KernelGeneratorInfo apsp_fw_generator() {
    KernelGeneratorInfo info;
    info.name = "apsp-fw";
    info.description = "all-pairs shortest paths, Floyd-Warshall in global memory: n launches of a ceil(n/BS)^2 grid";
    info.keys = {
        {"n", "N", "graph nodes, the matrix is N x N and there are N launches (required), 1..1000000"},
        {"block", "BS | BSxBS", "tile side: blocks of BS x BS threads (required), BS 1..1024"},
        {"instr_per_step", "I",
         "warp-instructions of the add and compare (Alg. 4 line 3), 0..10^6 (default 2, eq. 22)"},
        {"latency_cycles", "C", "latency-bound cycles per warp, 0..10^9 (default 0: none)"},
    };
    for (auto& key : apsp_common_key_info()) info.keys.push_back(key);
    info.example = "apsp-fw:n=500,block=16";
    info.build = build_fw;
    info.launches = apsp_launch_count;
    return info;
}

}  // namespace gpusched::workloads
