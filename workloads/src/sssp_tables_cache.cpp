// A process-wide cache of SSSP instances' tables, keyed by the graph's edges, the source and the kernel configuration.
#include "gpusched/workloads/sssp_tables_cache.h"

#include <algorithm>
#include <list>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "gpusched/workloads/crauser_sssp.h"

namespace gpusched::workloads {

namespace {

constexpr std::size_t kGraphs = 4;
constexpr std::size_t kInstancesPerGraph = 4096;
constexpr std::size_t kMaxBytes = std::size_t{256} << 20;  // the tables kept, all graphs together
constexpr std::uint64_t kMaxEdges = std::uint64_t{1} << 21;  // a larger graph is not kept (its edges: 24 MiB)

bool same_edges(const std::vector<WeightedEdge>& a, const std::vector<WeightedEdge>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const WeightedEdge& x, const WeightedEdge& y) {
        return x.source == y.source && x.target == y.target && x.weight == y.weight;
    });
}

struct GraphEntry {
    std::uint32_t nodes = 0;
    std::vector<WeightedEdge> edges;
    /// By source, the configurations asked for (compared with SsspKernelConfig's ==: every field).
    std::map<std::uint32_t, std::vector<std::pair<SsspKernelConfig, std::shared_ptr<const SsspTables>>>> tables;
    std::size_t instances = 0;
    std::size_t bytes = 0;  ///< the tables' table_bytes(), summed
};

std::mutex cache_mutex;
std::list<GraphEntry> cache;  // most recently used first
std::size_t cached_bytes = 0;

void drop_tables(GraphEntry& entry) {
    cached_bytes -= entry.bytes;
    entry.bytes = 0;
    entry.instances = 0;
    entry.tables.clear();
}

/// The tables kept for (source, config) in `entry`, or null; cache_mutex must be held.
std::shared_ptr<const SsspTables> find_tables(const GraphEntry& entry, std::uint32_t source, const SsspKernelConfig& config) {
    const auto it = entry.tables.find(source);
    if (it == entry.tables.end()) return nullptr;
    for (const auto& [kept, tables] : it->second)
        if (kept == config) return tables;
    return nullptr;
}

/// The entry of (nodes, edges), moved to the front (added if absent); cache_mutex must be held.
GraphEntry& entry_of(std::uint32_t nodes, std::vector<WeightedEdge> edges) {
    const auto it = std::find_if(cache.begin(), cache.end(),
                                 [&](const GraphEntry& e) { return e.nodes == nodes && same_edges(e.edges, edges); });
    if (it != cache.end()) {
        cache.splice(cache.begin(), cache, it);
    } else {
        cache.push_front(GraphEntry{nodes, std::move(edges), {}, 0});
        if (cache.size() > kGraphs) {
            drop_tables(cache.back());
            cache.pop_back();
        }
    }
    return cache.front();
}

}  // namespace

std::shared_ptr<const SsspTables> cached_sssp_tables(const Graph& graph, std::uint32_t source, const SsspKernelConfig& config) {
    if (graph.edges() > kMaxEdges)  // keeping its edges to compare would cost more than the tables save
        return std::make_shared<const SsspTables>(graph, crauser_sssp(graph, source, config.criteria), config);
    std::vector<WeightedEdge> edges = graph.edge_list();
    {
        std::lock_guard<std::mutex> lock(cache_mutex);
        GraphEntry& entry = entry_of(graph.nodes(), std::move(edges));
        if (auto hit = find_tables(entry, source, config)) return hit;
        edges = entry.edges;  // to find the entry again after computing outside the lock
    }
    auto tables = std::make_shared<const SsspTables>(graph, crauser_sssp(graph, source, config.criteria), config);
    std::lock_guard<std::mutex> lock(cache_mutex);
    GraphEntry& entry = entry_of(graph.nodes(), std::move(edges));
    if (auto hit = find_tables(entry, source, config)) return hit;  // another thread's
    const std::size_t bytes = tables->table_bytes();
    if (bytes > kMaxBytes) return tables;  // too large to keep: shared by this application's launches alone
    // Room first from the graphs used longest ago, then from this one.
    for (auto it = cache.rbegin(); it != cache.rend() && cached_bytes + bytes > kMaxBytes; ++it) drop_tables(*it);
    if (entry.instances >= kInstancesPerGraph) drop_tables(entry);
    entry.tables[source].emplace_back(config, tables);
    ++entry.instances;
    entry.bytes += bytes;
    cached_bytes += bytes;
    return tables;
}

}  // namespace gpusched::workloads
