// The n x SSSP kernels' latency floors: chain segments on a GPU, composed per block from its cost.
#include "gpusched/workloads/sssp_latency.h"

#include "gpusched/workloads/latency_chains.h"
#include "gpusched/workloads/spec_numbers.h"
#include "warp_arithmetic.h"
#include "sssp_element_bytes.h"

namespace gpusched::workloads {

namespace {

/// The minimum kernel's tree steps with a barrier (strides T/2, T/4, ... >= 32).
int min_tree_steps(std::uint32_t threads) {
    int steps = 0;
    for (std::uint32_t s = threads / 2; s >= kCudaWarpSize; s /= 2) ++steps;
    return steps;
}

SsspChains chains_on(GpuNumbers& numbers, const SsspTables& tables, const hw::GpuSpec& gpu) {
    const std::uint32_t threads = tables.config().min_threads;
    return sssp_chains(numbers, sssp_graph_in_l2(tables, gpu), min_tree_steps(threads),
                       static_cast<int>(ceil_div(threads, kCudaWarpSize)));
}

}  // namespace

bool sssp_graph_in_l2(const SsspTables& tables, const hw::GpuSpec& gpu) {
    const double bytes = static_cast<double>(tables.nodes()) * (3 * kSsspWordBytes + 2 * kSsspFlagBytes) +
                         static_cast<double>(tables.edges()) * 2 * kSsspWordBytes;
    return gpu.l2_bytes && bytes <= static_cast<double>(*gpu.l2_bytes);
}

SsspLatency derive_sssp_latency(GpuNumbers& numbers, const SsspTables& tables, const hw::GpuSpec& gpu) {
    const SsspChains c = chains_on(numbers, tables, gpu);
    SsspLatency l;
    l.relax_entry = c.relax_entry.cycles_per_step;
    l.relax_frontier = c.relax_frontier.cycles_per_step;
    l.edge = sssp_edge_chain(numbers, sssp_graph_in_l2(tables, gpu)).cycles_per_step;
    l.min_entry = c.min_entry.cycles_per_step;
    l.min_level = c.min_level.cycles_per_step;
    l.min_tree = c.min_tree.cycles_per_step;
    l.update_entry = c.update_entry.cycles_per_step;
    l.update_test = c.update_test.cycles_per_step;
    return l;
}

double sssp_latency_cycles(const SsspLatency& l, SsspKernel kernel, const SsspBlockCost& c) {
    switch (kernel) {
        case SsspKernel::relax: return l.relax_entry + (c.frontier ? l.relax_frontier + c.latency_steps * l.edge : 0);
        case SsspKernel::minimum: return l.min_entry + c.load_levels * l.min_level + l.min_tree;
        case SsspKernel::update: return l.update_entry + (c.frontier ? l.update_test : 0);
    }
    return 0;
}

std::vector<std::string> sssp_latency_steps(GpuNumbers& numbers, const SsspTables& tables, const hw::GpuSpec& gpu,
                                            SsspKernel kernel) {
    const bool in_l2 = sssp_graph_in_l2(tables, gpu);
    const SsspChains c = chains_on(numbers, tables, gpu);
    std::vector<std::string> out{std::string("graph arrays ") + (in_l2 ? "fit in L2" : "do not fit in L2: DRAM")};
    const auto cycles = [](const StepChain& chain) { return format_spec_number(chain.cycles_per_step); };
    switch (kernel) {
        case SsspKernel::relax: {
            const StepChain edge = sssp_edge_chain(numbers, in_l2);
            out.push_back(describe_step_chain(c.relax_entry, "entry"));
            out.push_back(describe_step_chain(c.relax_frontier, "a frontier node"));
            out.push_back(describe_step_chain(edge, "edge"));
            out.push_back("latency floor = " + cycles(c.relax_entry) + ", + " + cycles(c.relax_frontier) +
                          " + the longest edge loop x " + cycles(edge) + " in a block with a frontier node (derived from the GPU)");
            break;
        }
        case SsspKernel::minimum:
            out.push_back(describe_step_chain(c.min_entry, "entry"));
            out.push_back(describe_step_chain(c.min_level, "load level"));
            out.push_back(describe_step_chain(c.min_tree, "tree"));
            out.push_back("latency floor = " + cycles(c.min_entry) + " + levels x " + cycles(c.min_level) + " + " +
                          cycles(c.min_tree) + "; levels: per element 1 (U), 2 (an element of U_i: dist), 3 (reached: "
                          "the out-weight), the two elements of a thread in turn, the block's longest warp (derived from the GPU)");
            break;
        case SsspKernel::update:
            out.push_back(describe_step_chain(c.update_entry, "entry"));
            out.push_back(describe_step_chain(c.update_test, "an unsettled node"));
            out.push_back("latency floor = " + cycles(c.update_entry) + ", + " + cycles(c.update_test) +
                          " in a block holding a node of U_i (derived from the GPU)");
            break;
    }
    return out;
}

}  // namespace gpusched::workloads
