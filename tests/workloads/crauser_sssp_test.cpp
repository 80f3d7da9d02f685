// Crauser's SSSP on the CPU: distances equal Boost's Dijkstra; per-iteration sets worked out by hand on a tiny graph.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <boost/graph/dijkstra_shortest_paths.hpp>

#include "gpusched/workloads/crauser_sssp.h"
#include "gpusched/workloads/graph.h"
#include "gpusched/workloads/graph_file.h"

using namespace gpusched::workloads;

namespace {

std::vector<std::uint64_t> boost_dijkstra(const Graph& graph, std::uint32_t source) {
    std::vector<std::uint64_t> dist(graph.nodes());
    const CsrGraph& g = graph.csr();
    boost::dijkstra_shortest_paths(
        g, source,
        boost::distance_map(boost::make_iterator_property_map(dist.begin(), boost::get(boost::vertex_index, g)))
            .weight_map(boost::get(&EdgeWeight::weight, g))
            .distance_inf(kUnreachable));
    return dist;
}

Graph tiny() { return read_graph_file(std::string(GPUSCHED_SOURCE_DIR) + "/tests/workloads/data/sssp/tiny.gr"); }

}  // namespace

TEST_CASE("Crauser's SSSP equals Boost's dijkstra_shortest_paths on random graphs, every criterion") {
    for (const std::uint64_t seed : {1u, 2u, 3u, 4u, 5u}) {
        for (const double degree : {0.7, 2.0, 8.0}) {
            const Graph graph = random_graph(600, degree, seed);
            for (const std::uint32_t source : {0u, 17u, 599u}) {
                const auto expected = boost_dijkstra(graph, source);
                for (const auto criteria : {CrauserCriteria::out, CrauserCriteria::in, CrauserCriteria::both}) {
                    CAPTURE(seed);
                    CAPTURE(degree);
                    CAPTURE(source);
                    CAPTURE(criteria_name(criteria));
                    const SsspRun run = crauser_sssp(graph, source, criteria);
                    CHECK(run.distance == expected);
                    // Every reached node is settled exactly once, in a frontier; unreached ones never.
                    std::uint64_t frontier_total = 0;
                    for (const auto& it : run.iterations) frontier_total += it.frontier;
                    std::uint64_t reached = 0;
                    for (std::uint32_t v = 0; v < graph.nodes(); ++v) {
                        reached += expected[v] != kUnreachable;
                        CHECK((run.settle_iteration[v] == kNeverSettled) == (expected[v] == kUnreachable));
                    }
                    CHECK(frontier_total == reached);
                    CHECK(run.iterations.back().settled == 0);
                }
            }
        }
    }
}

TEST_CASE("Crauser settles several nodes per iteration: fewer iterations than Dijkstra's one per node") {
    const Graph graph = random_graph(4000, 4, 11);
    const SsspRun out = crauser_sssp(graph, 0, CrauserCriteria::out);
    const SsspRun both = crauser_sssp(graph, 0, CrauserCriteria::both);
    std::uint64_t reached = 0;
    for (const auto d : out.distance) reached += d != kUnreachable;
    CHECK(out.iterations.size() * 5 < reached);
    CHECK(both.iterations.size() <= out.iterations.size());
}

// The tiny graph (tests/workloads/data/sssp/tiny.gr, 0-based here): 0->1 (2), 0->2 (3), 1->3 (4),
// 2->3 (2), 2->4 (6), 3->5 (1), 4->5 (1), 6->0 (1). Min out-weights w_out: 0:2 1:4 2:2 3:1 4:1 5:inf 6:1.
// OUT criterion, source 0:
//  i=0: F={0}, U={1..6} (6). Relax 0->1, 0->2: d1=2, d2=3 (2 scanned, 2 into U; reached {1,2}).
//       Delta = min(d1+4, d2+2) = min(6, 5) = 5: settles 1 and 2 (d <= 5).
//  i=1: F={1,2}, U={3,4,5,6} (4). Relax 1->3 (6), 2->3 (5), 2->4 (9): d3=5, d4=9 (3 scanned, 3 into U;
//       reached {3,4}). Delta = min(5+1, 9+1) = 6: settles 3.
//  i=2: F={3}, U={4,5,6} (3). Relax 3->5: d5=6 (1 scanned, 1 into U; reached {4,5}).
//       Delta = min(9+1, 6+inf) = 10: settles 4 and 5.
//  i=3: F={4,5}, U={6} (1). Relax 4->5: 5 is settled (1 scanned, 0 into U); 5 has no out-edge.
//       No reached node is left in U (6 has no in-edge): the loop ends, settling nothing.
TEST_CASE("per-iteration sets on the hand-worked tiny graph (OUT criterion)") {
    const SsspRun run = crauser_sssp(tiny(), 0, CrauserCriteria::out);
    CHECK(run.distance == std::vector<std::uint64_t>{0, 2, 3, 5, 9, 6, kUnreachable});
    CHECK(run.settle_iteration == std::vector<std::uint32_t>{0, 1, 1, 2, 3, 3, kNeverSettled});
    REQUIRE(run.iterations.size() == 4);
    const std::vector<std::vector<std::uint64_t>> expected = {
        // frontier, unsettled, reached, scanned, relaxed, settled
        {1, 6, 2, 2, 2, 2},
        {2, 4, 2, 3, 3, 1},
        {1, 3, 2, 1, 1, 2},
        {2, 1, 0, 1, 0, 0},
    };
    for (std::size_t i = 0; i < 4; ++i) {
        CAPTURE(i);
        const SsspIteration& it = run.iterations[i];
        CHECK(std::vector<std::uint64_t>{it.frontier, it.unsettled, it.reached, it.edges_scanned, it.edges_relaxed,
                                         it.settled} == expected[i]);
    }
}

// IN criterion on the same graph: min in-weights w_in: 1:2 2:3 3:2 4:6 5:1 (0 and 6: none, taken as 0).
//  i=0: d1=2, d2=3; min d over U = 2. Settle v with d(v) - w_in(v) <= 2: 1 (2-2=0), 2 (3-3=0).
//  i=1: d3=5, d4=9; min = 5. 3: 5-2=3 <= 5 settles; 4: 9-6=3 <= 5 settles too (OUT could not).
//  i=2: F={3,4}: 3->5 gives 6, 4->5 gives 10: d5=6; min = 6; 5: 6-1=5 <= 6 settles.
//  i=3: F={5}: no out-edge; nothing reached is left.
TEST_CASE("per-iteration sets on the tiny graph (IN criterion) settle node 4 one iteration earlier") {
    const SsspRun run = crauser_sssp(tiny(), 0, CrauserCriteria::in);
    CHECK(run.settle_iteration == std::vector<std::uint32_t>{0, 1, 1, 2, 2, 3, kNeverSettled});
    REQUIRE(run.iterations.size() == 4);
    CHECK(run.iterations[1].settled == 2);
    CHECK(run.iterations[2].frontier == 2);
    CHECK(run.iterations[2].edges_scanned == 2);  // 3->5 and 4->5
    CHECK(run.iterations[2].edges_relaxed == 2);
}
