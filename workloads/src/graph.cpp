// Graph: the Boost CSR graph wrapper and the seeded Erdos-Renyi generator of the APSP paper's inputs.
#include "gpusched/workloads/graph.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/erdos_renyi_generator.hpp>
#include <boost/random/mersenne_twister.hpp>
#include <boost/random/seed_seq.hpp>
#include <boost/random/uniform_int_distribution.hpp>

namespace gpusched::workloads {

namespace {

/// The weight range of the paper's graphs (Sect. 5.1: integers uniform in [1 ... 100]).
constexpr std::uint32_t kMinRandomWeight = 1;
constexpr std::uint32_t kMaxRandomWeight = 100;
/// Random graphs expect at most this many edges, so that the realised count (a binomial variable
/// whose deviation is ~sqrt of it) stays below kMaxGraphEdges.
constexpr double kMaxRandomEdges = 30'000'000;

/// Only its vertices_size_type (64-bit) matters: sorted_erdos_renyi_iterator's geometric skips over
/// candidate targets must not wrap for small p.
using GeneratorTag = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;

CsrGraph make_csr(std::uint32_t nodes, std::vector<WeightedEdge>& edges) {
    std::stable_sort(edges.begin(), edges.end(),
                     [](const WeightedEdge& a, const WeightedEdge& b) { return a.source < b.source; });
    std::vector<std::pair<std::uint32_t, std::uint32_t>> ends;
    std::vector<EdgeWeight> weights;
    ends.reserve(edges.size());
    weights.reserve(edges.size());
    for (const auto& e : edges) {
        ends.emplace_back(e.source, e.target);
        weights.push_back(EdgeWeight{e.weight});
    }
    edges.clear();
    edges.shrink_to_fit();
    return CsrGraph(boost::edges_are_sorted, ends.begin(), ends.end(), weights.begin(), nodes);
}

}  // namespace

Graph::Graph(std::uint32_t nodes, std::vector<WeightedEdge> edges) : nodes_(nodes) {
    if (nodes < 1 || nodes > kMaxGraphNodes)
        throw std::invalid_argument("Graph: " + std::to_string(nodes) + " nodes; allowed 1.." +
                                    std::to_string(kMaxGraphNodes));
    if (edges.size() > kMaxGraphEdges)
        throw std::invalid_argument("Graph: " + std::to_string(edges.size()) + " edges; at most " +
                                    std::to_string(kMaxGraphEdges));
    for (const auto& e : edges)
        if (e.source >= nodes || e.target >= nodes || e.weight > kMaxEdgeWeight)
            throw std::invalid_argument("Graph: edge " + std::to_string(e.source) + " -> " + std::to_string(e.target) +
                                        " is outside the graph or too heavy");
    csr_ = make_csr(nodes, edges);
}

std::vector<WeightedEdge> Graph::edge_list() const {
    std::vector<WeightedEdge> out;
    out.reserve(edges());
    for (std::uint32_t v = 0; v < nodes_; ++v)
        for (const auto e : boost::make_iterator_range(boost::out_edges(v, csr_)))
            out.push_back({v, static_cast<std::uint32_t>(boost::target(e, csr_)), csr_[e].weight});
    return out;
}

Graph random_graph(std::uint32_t nodes, double degree, std::uint64_t seed) {
    if (nodes < 1 || nodes > kMaxGraphNodes)
        throw std::invalid_argument("random_graph: " + std::to_string(nodes) + " nodes; allowed 1.." +
                                    std::to_string(kMaxGraphNodes));
    const double max_degree = static_cast<double>(nodes - 1);
    if (!(degree >= 0) || degree > max_degree)
        throw std::invalid_argument("random_graph: degree " + std::to_string(degree) + " outside 0.." +
                                    std::to_string(nodes - 1));
    if (static_cast<double>(nodes) * degree > kMaxRandomEdges)
        throw std::invalid_argument("random_graph: nodes x degree above " + std::to_string(kMaxRandomEdges));

    const auto lo = static_cast<std::uint32_t>(seed);
    const auto hi = static_cast<std::uint32_t>(seed >> 32);
    boost::random::seed_seq topology_seed{lo, hi, 1u};
    boost::random::seed_seq weight_seed{lo, hi, 2u};
    boost::random::mt19937 topology(topology_seed);
    boost::random::mt19937 weight_rng(weight_seed);
    boost::random::uniform_int_distribution<std::uint32_t> weight(kMinRandomWeight, kMaxRandomWeight);

    std::vector<WeightedEdge> edges;
    edges.reserve(static_cast<std::size_t>(static_cast<double>(nodes) * degree * 1.01) + 16);
    const auto add = [&](std::uint64_t u, std::uint64_t v) {
        if (edges.size() >= kMaxGraphEdges) throw std::invalid_argument("random_graph: too many edges");
        edges.push_back({static_cast<std::uint32_t>(u), static_cast<std::uint32_t>(v), weight(weight_rng)});
    };
    if (nodes >= 2 && degree >= max_degree) {  // p = 1: every ordered pair (the geometric skip needs p < 1)
        for (std::uint64_t u = 0; u < nodes; ++u)
            for (std::uint64_t v = 0; v < nodes; ++v)
                if (u != v) add(u, v);
    } else if (nodes >= 2 && degree > 0) {
        using Iterator = boost::sorted_erdos_renyi_iterator<boost::random::mt19937, GeneratorTag>;
        for (Iterator it(topology, nodes, degree / max_degree, false), end; it != end; ++it) add(it->first, it->second);
    }
    return Graph(nodes, std::move(edges));
}

}  // namespace gpusched::workloads
