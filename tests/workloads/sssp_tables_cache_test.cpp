// The SSSP tables cache: a hit only for the same edges, source and configuration, and the same answers as a fresh computation.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "gpusched/workloads/crauser_sssp.h"
#include "gpusched/workloads/graph_file.h"
#include "gpusched/workloads/sssp_tables_cache.h"
#include "gpusched/workloads/sssp_work.h"

using namespace gpusched;
using namespace gpusched::workloads;

namespace {

Graph tiny() { return read_graph_file(std::string(GPUSCHED_SOURCE_DIR) + "/tests/workloads/data/sssp/tiny.gr"); }

SsspKernelConfig threads(std::uint32_t n) {
    SsspKernelConfig c;
    c.relax_threads = n;
    c.min_threads = n;
    c.update_threads = n;
    return c;
}

/// Everything the tables answer for one instance: its iterations, then every block's cost of every kernel.
std::vector<double> answers(const SsspTables& t, const Graph& g) {
    std::vector<double> out;
    for (const SsspIteration& it : t.iterations())
        out.insert(out.end(), {double(it.frontier), double(it.unsettled), double(it.reached), double(it.edges_scanned),
                               double(it.edges_relaxed), double(it.settled)});
    for (std::uint32_t i = 0; i < t.iterations().size(); ++i)
        for (const SsspKernel k : {SsspKernel::relax, SsspKernel::minimum, SsspKernel::update})
            for (std::uint64_t b = 0; b < sssp_grid_blocks(k, g.nodes(), t.config()); ++b) {
                const SsspBlockCost c = t.cost(k, i, b);
                out.insert(out.end(), {c.issue_slots, c.busiest_warp_slots, c.dram_bytes, c.latency_cycles, c.latency_steps,
                                       double(c.active_threads), double(c.frontier), double(c.load_levels)});
            }
    return out;
}

std::vector<double> fresh_answers(const Graph& g, std::uint32_t source, const SsspKernelConfig& config) {
    return answers(SsspTables(g, crauser_sssp(g, source, config.criteria), config), g);
}

}  // namespace

TEST_CASE("sssp tables cache: the same edges, source and configuration share one computation") {
    const Graph g = tiny();
    const auto first = cached_sssp_tables(g, 0, threads(4));
    // The graph read again (another Graph object, as every sssp spec reads its file) hits the same entry.
    CHECK(cached_sssp_tables(tiny(), 0, threads(4)) == first);
    CHECK(answers(*first, g) == fresh_answers(g, 0, threads(4)));
}

TEST_CASE("sssp tables cache: another source, configuration or graph is computed afresh") {
    const Graph g = tiny();
    const auto base = cached_sssp_tables(g, 0, threads(4));
    // Each of these differs from `base` in one part of the key; each must equal its own fresh computation
    // (a cache keyed on less would hand back base's tables, whose answers differ: checked first).
    const auto other_source = cached_sssp_tables(g, 1, threads(4));
    REQUIRE(fresh_answers(g, 1, threads(4)) != fresh_answers(g, 0, threads(4)));
    CHECK(other_source != base);
    CHECK(answers(*other_source, g) == fresh_answers(g, 1, threads(4)));

    const auto other_threads = cached_sssp_tables(g, 0, threads(2));
    CHECK(other_threads != base);
    CHECK(answers(*other_threads, g) == fresh_answers(g, 0, threads(2)));

    SsspKernelConfig in = threads(4);
    in.criteria = CrauserCriteria::in;
    CHECK(cached_sssp_tables(g, 0, in) != base);
    CHECK(answers(*cached_sssp_tables(g, 0, in), g) == fresh_answers(g, 0, in));

    SsspKernelConfig latency = threads(4);
    latency.edge_latency_cycles = 500;
    latency.edge_latency_given = true;
    CHECK(cached_sssp_tables(g, 0, latency) != base);
    CHECK(cached_sssp_tables(g, 0, latency)->config().edge_latency_cycles == 500);

    // The same nodes and edges with one weight changed: other distances, so other settle iterations.
    std::vector<WeightedEdge> edges = g.edge_list();
    REQUIRE(!edges.empty());
    std::vector<double> before = fresh_answers(g, 0, threads(4));
    bool differs = false;
    for (std::size_t e = 0; e < edges.size() && !differs; ++e) {
        std::vector<WeightedEdge> changed = edges;
        changed[e].weight += 1000;
        const Graph heavier(g.nodes(), changed);
        if (fresh_answers(heavier, 0, threads(4)) == before) continue;
        differs = true;
        const auto tables = cached_sssp_tables(heavier, 0, threads(4));
        CHECK(tables != base);
        CHECK(answers(*tables, heavier) == fresh_answers(heavier, 0, threads(4)));
    }
    CHECK(differs);
}

TEST_CASE("sssp tables cache: more graphs than it keeps are each still right") {
    // Six graphs (the cache keeps four), asked twice in turn: evictions never return another graph's tables.
    std::vector<Graph> graphs;
    for (std::uint64_t seed = 1; seed <= 6; ++seed) graphs.push_back(random_graph(64, 3, seed));
    for (int round = 0; round < 2; ++round)
        for (const Graph& g : graphs) {
            CAPTURE(round);
            CHECK(answers(*cached_sssp_tables(g, 0, threads(32)), g) == fresh_answers(g, 0, threads(32)));
        }
}

TEST_CASE("sssp tables: table_bytes counts the tables, which grow with the graph") {
    // What the cache's 256 MiB bound adds up: a graph 16 times larger has larger tables.
    const Graph small = random_graph(256, 4, 7), large = random_graph(4096, 4, 7);
    const auto a = cached_sssp_tables(small, 0, threads(64));
    const auto b = cached_sssp_tables(large, 0, threads(64));
    CHECK(a->table_bytes() >= a->iterations().size() * sizeof(SsspIteration));
    CHECK(b->table_bytes() > 4 * a->table_bytes());
}
