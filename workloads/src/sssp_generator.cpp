// The `sssp` generator: K Crauser SSSP instances, each iteration a relax, minimum and update launch, on C streams.
#include "gpusched/workloads/sssp_generator.h"

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <utility>

#include "gpusched/support/input_error.h"
#include "gpusched/workloads/graph_file.h"
#include "gpusched/workloads/kernel_spec.h"
#include "gpusched/workloads/spec_numbers.h"
#include "gpusched/workloads/sssp_launches.h"

namespace gpusched::workloads {

namespace {

constexpr std::int64_t kSsspDefaultThreads = 256;
constexpr std::int64_t kMaxSeed = (std::int64_t{1} << 62) + ((std::int64_t{1} << 62) - 1);
constexpr double kMaxRandomGraphEdges = 30'000'000;  // as random_graph: the realised count stays below kMaxGraphEdges


std::uint32_t threads_key(SpecArgs& args, const std::string& key, std::uint32_t fallback) {
    return static_cast<std::uint32_t>(args.optional_integer(key, 1, kMaxSpecThreads).value_or(fallback));
}

hw::Carveout carveout_key(SpecArgs& args, const std::string& key, const hw::Carveout& fallback) {
    if (!args.has(key)) return fallback;
    return hw::Carveout::parse(args.text(key), args.where(key) + ": key '" + args.key_path(key) + "'");
}

Graph spec_graph(SpecArgs& args) {
    if (args.has("graph")) {
        for (const char* key : {"nodes", "degree", "seed"})
            if (args.has(key)) args.fail(key, "give either graph=PATH or a random graph (nodes, degree, seed), not both");
        return read_graph_file(args.text("graph"));
    }
    if (!args.has("nodes")) args.fail_spec("required key 'nodes' (or 'graph') is missing");
    if (!args.has("degree")) args.fail_spec("required key 'degree' is missing (the mean fan-out degree)");
    const auto nodes = static_cast<std::uint32_t>(args.integer("nodes", 1, static_cast<std::int64_t>(kMaxGraphNodes)));
    const double degree = spec_number(args, "degree", 0, nodes - 1.0, 0);
    if (static_cast<double>(nodes) * degree > kMaxRandomGraphEdges)
        args.fail("degree", "nodes x degree is " + format_spec_number(nodes * degree) + " expected edges; at most " +
                                format_spec_number(kMaxRandomGraphEdges) + " are allowed");
    const auto seed = static_cast<std::uint64_t>(args.optional_integer("seed", 0, kMaxSeed).value_or(1));
    return random_graph(nodes, degree, seed);
}

std::vector<KernelLaunch> build_sssp(SpecArgs& args, const KernelLaunch& base) {
    for (const char* key : {"blocks", "grid"})
        if (args.has(key)) args.fail(key, "the grids follow from the node count (one thread per node); leave it out");
    if (base.block.y != 1 || base.block.z != 1)
        args.fail("block", "the sssp kernels use 1-D blocks (one thread per node); give threads=T");
    SsspOptions options;
    SsspKernelConfig& k = options.kernels;
    const auto threads = args.has("threads") || args.has("block") ? base.block.x : kSsspDefaultThreads;
    k.relax_threads = threads_key(args, "relax_threads", static_cast<std::uint32_t>(threads));
    k.min_threads = threads_key(args, "min_threads", static_cast<std::uint32_t>(threads));
    k.update_threads = threads_key(args, "update_threads", static_cast<std::uint32_t>(threads));
    if (args.has("criteria")) {
        const std::string c = args.text("criteria");
        if (c == "out") k.criteria = CrauserCriteria::out;
        else if (c == "in") k.criteria = CrauserCriteria::in;
        else if (c == "both") k.criteria = CrauserCriteria::both;
        else args.fail("criteria", "expected one of out, in, both, got '" + c.substr(0, 40) + "'");
    }
    k.edge_latency_given = args.has("edge_latency_cycles");
    k.edge_latency_cycles = spec_number(args, "edge_latency_cycles", 0, 1e9, 0);
    k.ns_per_instr = spec_number(args, "ns_per_instr", 0, 1000, 1);
    options.relax_carveout = carveout_key(args, "relax_carveout", base.carveout);
    options.min_carveout = carveout_key(args, "min_carveout", base.carveout);
    options.update_carveout = carveout_key(args, "update_carveout", base.carveout);
    if (args.has("static_smem")) options.min_static_smem = base.static_shared_bytes;
    options.streams = static_cast<std::uint32_t>(
        args.optional_integer("streams", 1, static_cast<std::int64_t>(kMaxSsspStreams)).value_or(1));
    if (base.stream + static_cast<std::int64_t>(options.streams) - 1 > kMaxStreamId)
        args.fail("streams", "streams " + std::to_string(base.stream) + ".." +
                                 std::to_string(base.stream + options.streams - 1) + " go past stream id " +
                                 std::to_string(kMaxStreamId));
    const std::int64_t sources_given = args.optional_integer("sources", 1, static_cast<std::int64_t>(kMaxGraphNodes)).value_or(1);

    const Graph graph = spec_graph(args);
    if (sources_given > graph.nodes())
        args.fail("sources", "the graph has " + std::to_string(graph.nodes()) + " nodes, fewer than " +
                                 std::to_string(sources_given) + " sources");
    options.sources = static_cast<std::uint32_t>(sources_given);
    const auto too_big = [&](const std::string& what) {
        const std::string message = what + "; use fewer sources or a smaller graph";
        if (args.has("sources")) args.fail("sources", message);
        args.fail_spec(message);
    };
    if (std::uint64_t{options.sources} * graph.nodes() > kMaxSsspInstanceNodes)
        too_big(std::to_string(options.sources) + " sources x " + std::to_string(graph.nodes()) + " nodes is more than " +
                std::to_string(kMaxSsspInstanceNodes));
    if (options.sources * graph.edges() > kMaxSsspInstanceEdges)
        too_big(std::to_string(options.sources) + " sources x " + std::to_string(graph.edges()) + " edges is more than " +
                std::to_string(kMaxSsspInstanceEdges));
    try {
        return sssp_launches(graph, options, base, kMaxSpecApplicationLaunches);
    } catch (const std::length_error& e) {
        args.fail("sources", std::string(e.what()) + "; use fewer sources");
    }
}

}  // namespace

KernelGeneratorInfo sssp_generator() {
    KernelGeneratorInfo info;
    info.name = "sssp";
    info.description = "n x SSSP (Crauser): per iteration a relax, minimum and update launch; K sources on C streams";
    info.keys = {
        {"nodes", "N", "random graph: nodes, 1..2^24 (with degree; or graph=)"},
        {"degree", "D", "random graph: mean fan-out degree, 0..N-1 (G(n, p), weights 1..100)"},
        {"seed", "S", "random graph: seed, 0..2^63-1 (default 1)"},
        {"graph", "PATH", "graph file instead: DIMACS if it ends in .gr, else an edge list 'u v w'"},
        {"sources", "K", "SSSP instances, from sources 0..K-1 (default 1)"},
        {"streams", "C", "concurrency degree: instance k on stream stream+(k mod C), 1..32 (default 1)"},
        {"criteria", "out|in|both", "Crauser criteria deciding what an iteration settles (default out)"},
        {"relax_threads", "T", "threads per block of the relax kernel (default: threads, or 256)"},
        {"min_threads", "T", "threads per block of the minimum kernel (default: threads, or 256)"},
        {"update_threads", "T", "threads per block of the update kernel (default: threads, or 256)"},
        {"relax_carveout", "default|max-shared|max-l1|equal|0..100", "carveout of the relax kernel (default: carveout)"},
        {"min_carveout", "default|max-shared|max-l1|equal|0..100", "carveout of the minimum kernel (default: carveout)"},
        {"update_carveout", "default|max-shared|max-l1|equal|0..100", "carveout of the update kernel (default: carveout)"},
        {"edge_latency_cycles", "C", "relax: latency-bound cycles per edge-loop trip, 0..10^9 (default: each kernel's dependency chain on the GPU; given, minimum and update have no floor)"},
        {"ns_per_instr", "NS", "`fixed` model only: ns per warp-instruction of a block's busiest warp, 0..1000 (default 1)"},
    };
    info.example = "sssp:nodes=2000,degree=4,sources=8,streams=4,threads=128";
    info.sequence = build_sssp;
    return info;
}

}  // namespace gpusched::workloads
