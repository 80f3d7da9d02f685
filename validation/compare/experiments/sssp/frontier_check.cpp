// Per-iteration frontier sets recorded by the runner against crauser_sssp on the same graph and source.
#include "experiments/sssp/frontier_check.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include "gpusched/support/input_error.h"
#include "gpusched/workloads/crauser_sssp.h"
#include "gpusched/workloads/graph_file.h"
#include "measured_table.h"

namespace gpusched::validation {

namespace {

constexpr std::uint64_t kNoneReached = 2147483647;
constexpr std::uint64_t kNoOutEdges = 2147483646;

struct Recorded {
    std::string where;
    std::int64_t iteration, frontier, unsettled, reached, delta, settled;
};

/// delta_i of every iteration: tentative distances after relax i are the minimum over settled
/// predecessors v (s(v) <= i) of dist(v) + w; the threshold is over reached nodes of U_i.
std::vector<std::uint64_t> thresholds(const workloads::Graph& g, const workloads::SsspRun& run,
                                      const std::vector<std::uint64_t>& min_out) {
    const std::uint32_t n = g.nodes();
    std::vector<std::vector<std::uint32_t>> frontier(run.iterations.size());
    for (std::uint32_t v = 0; v < n; ++v)
        if (run.settle_iteration[v] < frontier.size()) frontier[run.settle_iteration[v]].push_back(v);
    std::vector<std::uint64_t> tentative(n, workloads::kUnreachable), out;
    const auto& csr = g.csr();
    for (std::size_t i = 0; i < run.iterations.size(); ++i) {
        for (std::uint32_t v : frontier[i])
            for (const auto e : boost::make_iterator_range(boost::out_edges(v, csr))) {
                const std::uint32_t u = static_cast<std::uint32_t>(boost::target(e, csr));
                if (run.settle_iteration[u] > i)
                    tentative[u] = std::min(tentative[u], run.distance[v] + csr[e].weight);
            }
        std::uint64_t delta = kNoneReached;
        for (std::uint32_t u = 0; u < n; ++u)
            if (run.settle_iteration[u] > i && tentative[u] != workloads::kUnreachable)
                delta = std::min(delta, min_out[u] == workloads::kUnreachable ? kNoOutEdges : tentative[u] + min_out[u]);
        out.push_back(delta);
    }
    return out;
}

void compare_source(const workloads::Graph& g, const std::vector<std::uint64_t>& min_out, std::uint32_t source,
                    const std::vector<Recorded>& rows, SsspFrontierCheck& check) {
    const workloads::SsspRun run = workloads::crauser_sssp(g, source, workloads::CrauserCriteria::out);
    const std::vector<std::uint64_t> delta = thresholds(g, run, min_out);
    const auto fail = [&](const std::string& what) {
        ++check.mismatches;
        if (check.first_mismatch.empty()) check.first_mismatch = what;
    };
    if (rows.size() != run.iterations.size())
        fail(rows.front().where + ": source " + std::to_string(source) + " has " + std::to_string(rows.size()) +
             " iterations recorded, the CPU reference " + std::to_string(run.iterations.size()));
    for (std::size_t i = 0; i < std::min(rows.size(), run.iterations.size()); ++i) {
        const Recorded& r = rows[i];
        const workloads::SsspIteration& it = run.iterations[i];
        ++check.iterations;
        const std::vector<std::pair<const char*, std::pair<std::int64_t, std::int64_t>>> fields{
            {"iteration", {r.iteration, static_cast<std::int64_t>(i)}},
            {"frontier", {r.frontier, it.frontier}},
            {"unsettled", {r.unsettled, it.unsettled}},
            {"reached", {r.reached, it.reached}},
            {"delta", {r.delta, static_cast<std::int64_t>(delta[i])}},
            {"settled", {r.settled, it.settled}}};
        for (const auto& [name, values] : fields)
            if (values.first != values.second) {
                fail(r.where + ": " + name + " " + std::to_string(values.first) + ", CPU reference " +
                     std::to_string(values.second));
                break;
            }
    }
}

}  // namespace

std::vector<SsspFrontierCheck> check_sssp_frontiers(const std::string& dir) {
    namespace fs = std::filesystem;
    const std::string path = (fs::path(dir) / "frontier.csv").string();
    std::map<std::string, std::map<std::uint32_t, std::vector<Recorded>>> recorded;
    constexpr std::int64_t big = std::int64_t{1} << 40;
    for (const auto& r : read_run_table(path, "SSSP frontier table",
                                        {"graph", "source", "iteration", "frontier", "unsettled", "reached", "delta",
                                         "settled"}))
        recorded[r.text("graph")][static_cast<std::uint32_t>(r.integer("source", 0, 1 << 24))].push_back(
            {r.where(), r.integer("iteration", 0, big), r.integer("frontier", 0, big), r.integer("unsettled", 0, big),
             r.integer("reached", 0, big), r.integer("delta", 0, big), r.integer("settled", 0, big)});
    std::vector<SsspFrontierCheck> out;
    for (const auto& [graph, sources] : recorded) {
        const workloads::Graph g = workloads::read_graph_file((fs::path(dir) / ("graph_" + graph + ".txt")).string());
        const std::vector<std::uint64_t> min_out = workloads::min_out_weights(g);
        SsspFrontierCheck check;
        check.graph = graph;
        for (const auto& [source, rows] : sources) {
            if (source >= g.nodes()) throw InputError(rows.front().where + ": source outside the graph");
            compare_source(g, min_out, source, rows, check);
            ++check.sources;
        }
        out.push_back(std::move(check));
    }
    return out;
}

}  // namespace gpusched::validation
