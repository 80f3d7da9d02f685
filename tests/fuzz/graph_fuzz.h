// Shared body of the graph-reader fuzz targets: any bytes parse (then run Crauser and the kernel tables) or throw InputError.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "gpusched/support/input_error.h"
#include "gpusched/workloads/crauser_sssp.h"
#include "gpusched/workloads/graph_file.h"
#include "gpusched/workloads/sssp_work.h"

namespace gpusched::fuzz {

/// Graphs up to this size also go through Crauser's SSSP and the kernels' tables (bigger ones only parse,
/// so that every input stays fast).
constexpr std::uint32_t kMaxExercisedNodes = 4096;
constexpr std::uint64_t kMaxExercisedEdges = 65536;

inline void exercise_graph(const workloads::Graph& graph) {
    using namespace gpusched::workloads;
    if (graph.nodes() > kMaxExercisedNodes || graph.edges() > kMaxExercisedEdges) return;
    SsspKernelConfig config;
    config.relax_threads = 32;
    config.min_threads = 48;
    config.update_threads = 64;
    config.criteria = CrauserCriteria::both;
    const SsspRun run = crauser_sssp(graph, 0, config.criteria);
    const SsspTables tables(graph, run, config);
    for (std::uint32_t i = 0; i < run.iterations.size(); ++i)
        for (const SsspKernel k : {SsspKernel::relax, SsspKernel::minimum, SsspKernel::update})
            for (std::uint64_t b = 0; b < sssp_grid_blocks(k, graph.nodes(), config) && b < 4; ++b)
                (void)tables.cost(k, i, b);
}

inline int fuzz_graph(const std::uint8_t* data, std::size_t size, workloads::GraphFormat format) {
    try {
        const workloads::Graph graph =
            workloads::parse_graph_text(std::string(reinterpret_cast<const char*>(data), size), "fuzz", format);
        exercise_graph(graph);
    } catch (const InputError&) {
        // Rejected with a message: the expected outcome for malformed input.
    }
    return 0;
}

}  // namespace gpusched::fuzz
