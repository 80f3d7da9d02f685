// Crauser's SSSP on the CPU, iteration by iteration as the relax / minimum / update kernels run it.
#include "gpusched/workloads/crauser_sssp.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <stdexcept>
#include <utility>

namespace gpusched::workloads {

namespace {

/// A min-heap of (key, node) with lazy deletion: an entry is stale once its node is settled or its key
/// no longer matches the node's current key.
template <typename Key>
class LazyHeap {
public:
    void push(Key key, std::uint32_t node) { heap_.emplace(key, node); }
    /// Drops stale entries from the top; true if a valid entry remains.
    template <typename Valid>
    bool clean(const Valid& valid) {
        while (!heap_.empty() && !valid(heap_.top().first, heap_.top().second)) heap_.pop();
        return !heap_.empty();
    }
    [[nodiscard]] const std::pair<Key, std::uint32_t>& top() const { return heap_.top(); }
    void pop() { heap_.pop(); }

private:
    using Entry = std::pair<Key, std::uint32_t>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap_;
};

}  // namespace

std::string criteria_name(CrauserCriteria criteria) {
    switch (criteria) {
        case CrauserCriteria::out: return "out";
        case CrauserCriteria::in: return "in";
        case CrauserCriteria::both: return "both";
    }
    return "?";
}

std::vector<std::uint64_t> min_out_weights(const Graph& graph) {
    std::vector<std::uint64_t> out(graph.nodes(), kUnreachable);
    const CsrGraph& g = graph.csr();
    for (std::uint32_t v = 0; v < graph.nodes(); ++v)
        for (const auto e : boost::make_iterator_range(boost::out_edges(v, g)))
            out[v] = std::min<std::uint64_t>(out[v], g[e].weight);
    return out;
}

std::vector<std::uint64_t> min_in_weights(const Graph& graph) {
    std::vector<std::uint64_t> in(graph.nodes(), kUnreachable);
    const CsrGraph& g = graph.csr();
    for (std::uint32_t v = 0; v < graph.nodes(); ++v)
        for (const auto e : boost::make_iterator_range(boost::out_edges(v, g))) {
            auto& w = in[boost::target(e, g)];
            w = std::min<std::uint64_t>(w, g[e].weight);
        }
    return in;
}

SsspRun crauser_sssp(const Graph& graph, std::uint32_t source, CrauserCriteria criteria) {
    const std::uint32_t n = graph.nodes();
    if (source >= n) throw std::invalid_argument("crauser_sssp: source outside the graph");
    const CsrGraph& g = graph.csr();
    const std::vector<std::uint64_t> w_out = min_out_weights(graph);
    std::vector<std::int64_t> w_in(n, 0);  // 0 where there is no in-edge: such a node is only ever the source
    {
        const std::vector<std::uint64_t> in = min_in_weights(graph);
        for (std::uint32_t v = 0; v < n; ++v)
            if (in[v] != kUnreachable) w_in[v] = static_cast<std::int64_t>(in[v]);
    }
    const bool use_out = criteria != CrauserCriteria::in;
    const bool use_in = criteria != CrauserCriteria::out;

    SsspRun run;
    run.source = source;
    run.distance.assign(n, kUnreachable);
    run.settle_iteration.assign(n, kNeverSettled);
    std::vector<std::uint64_t>& dist = run.distance;
    std::vector<char> unsettled(n, 1);
    dist[source] = 0;
    run.settle_iteration[source] = 0;
    unsettled[source] = 0;
    std::uint32_t unsettled_count = n - 1;
    std::uint32_t reached = 0;  // unsettled nodes with a finite distance

    LazyHeap<std::uint64_t> by_dist, by_out;  // keys dist(v) and dist(v) + w_out(v)
    LazyHeap<std::int64_t> by_in;             // key dist(v) - w_in(v)
    const auto valid_dist = [&](std::uint64_t key, std::uint32_t v) { return unsettled[v] && key == dist[v]; };
    const auto valid_out = [&](std::uint64_t key, std::uint32_t v) { return unsettled[v] && key == dist[v] + w_out[v]; };
    const auto valid_in = [&](std::int64_t key, std::uint32_t v) {
        return unsettled[v] && key == static_cast<std::int64_t>(dist[v]) - w_in[v];
    };

    std::vector<std::uint32_t> frontier{source}, next;
    for (std::uint32_t i = 0;; ++i) {
        SsspIteration it;
        it.frontier = static_cast<std::uint32_t>(frontier.size());
        it.unsettled = unsettled_count;
        // relax kernel: every frontier node scans its out-edges; edges into U_i do an atomicMin.
        for (const std::uint32_t f : frontier) {
            for (const auto e : boost::make_iterator_range(boost::out_edges(f, g))) {
                ++it.edges_scanned;
                const auto j = static_cast<std::uint32_t>(boost::target(e, g));
                if (!unsettled[j]) continue;
                ++it.edges_relaxed;
                const std::uint64_t candidate = dist[f] + g[e].weight;
                if (candidate >= dist[j]) continue;
                if (dist[j] == kUnreachable) ++reached;
                dist[j] = candidate;
                if (use_out || use_in) by_dist.push(candidate, j);
                if (use_out && w_out[j] != kUnreachable) by_out.push(candidate + w_out[j], j);
                if (use_in) by_in.push(static_cast<std::int64_t>(candidate) - w_in[j], j);
            }
        }
        it.reached = reached;
        // minimum kernel: the thresholds over U_i; none reached means the loop ends.
        if (!by_dist.clean(valid_dist)) {
            run.iterations.push_back(it);
            break;
        }
        const std::uint64_t delta_min = by_dist.top().first;
        const std::uint64_t delta_out = by_out.clean(valid_out) ? by_out.top().first : kUnreachable;
        // update kernel: settle what the criteria allow; the settled nodes are the next frontier.
        next.clear();
        const auto settle = [&](std::uint32_t v) {
            unsettled[v] = 0;
            --unsettled_count;
            --reached;
            run.settle_iteration[v] = i + 1;
            next.push_back(v);
        };
        if (use_out)
            while (by_dist.clean(valid_dist) && by_dist.top().first <= delta_out) {
                const std::uint32_t v = by_dist.top().second;
                by_dist.pop();
                settle(v);
            }
        if (use_in)
            while (by_in.clean(valid_in) && by_in.top().first <= static_cast<std::int64_t>(delta_min)) {
                const std::uint32_t v = by_in.top().second;
                by_in.pop();
                settle(v);
            }
        std::sort(next.begin(), next.end());
        it.settled = static_cast<std::uint32_t>(next.size());
        run.iterations.push_back(it);
        std::swap(frontier, next);
    }
    return run;
}

}  // namespace gpusched::workloads
