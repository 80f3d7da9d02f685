// Graph: a directed graph with integer edge weights (a Boost.Graph CSR graph) and the seeded random generator.
#pragma once

#include <cstdint>
#include <vector>

#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/range/iterator_range.hpp>

namespace gpusched::workloads {

/// Bounds every graph input obeys (generated or read from a file): they keep memory below ~1 GiB.
constexpr std::uint64_t kMaxGraphNodes = std::uint64_t{1} << 24;
constexpr std::uint64_t kMaxGraphEdges = std::uint64_t{1} << 25;
constexpr std::uint64_t kMaxEdgeWeight = (std::uint64_t{1} << 31) - 1;

/// The weight of one edge (a bundled property of the Boost CSR graph).
struct EdgeWeight {
    std::uint32_t weight = 0;
};

/// Boost's compressed sparse row graph: directed, 32-bit node and edge indices, a weight per edge.
using CsrGraph = boost::compressed_sparse_row_graph<boost::directedS, boost::no_property, EdgeWeight,
                                                    boost::no_property, std::uint32_t, std::uint32_t>;

/// One directed edge u -> v of weight w (0-based node ids), as readers and generators produce them.
struct WeightedEdge {
    std::uint32_t source = 0;
    std::uint32_t target = 0;
    std::uint32_t weight = 0;
};

/// An immutable directed graph with integer weights in [0, kMaxEdgeWeight].
class Graph {
public:
    /// `nodes` nodes (1..kMaxGraphNodes); every edge's ends must be below `nodes` (std::invalid_argument otherwise;
    /// readers check first and throw InputError). Parallel edges and self-loops are kept.
    Graph(std::uint32_t nodes, std::vector<WeightedEdge> edges);

    [[nodiscard]] std::uint32_t nodes() const { return nodes_; }
    [[nodiscard]] std::uint64_t edges() const { return boost::num_edges(csr_); }
    [[nodiscard]] const CsrGraph& csr() const { return csr_; }
    [[nodiscard]] std::uint32_t out_degree(std::uint32_t v) const {
        return static_cast<std::uint32_t>(boost::out_degree(v, csr_));
    }
    /// edges / nodes: the mean fan-out degree d(G).
    [[nodiscard]] double mean_degree() const { return static_cast<double>(edges()) / nodes_; }
    /// Every edge in CSR order (by source, then as given): for tests and fingerprints.
    [[nodiscard]] std::vector<WeightedEdge> edge_list() const;

private:
    std::uint32_t nodes_;
    CsrGraph csr_;
};

/// The paper's random graphs (Erdos-Renyi G(n, p) with p = degree / (n - 1), no self-loops, so the mean
/// fan-out degree is `degree` in expectation) with weights uniform in [1, 100], generated with Boost's
/// sorted_erdos_renyi_iterator and Boost.Random's mt19937 from `seed`: the same arguments give the same
/// graph on every run (across platforms as far as libm's log, used by the geometric skips, agrees). `nodes` 1..kMaxGraphNodes, `degree` 0..nodes-1 (std::invalid_argument
/// otherwise); the expected edge count nodes x degree must not exceed kMaxGraphEdges.
Graph random_graph(std::uint32_t nodes, double degree, std::uint64_t seed);

}  // namespace gpusched::workloads
