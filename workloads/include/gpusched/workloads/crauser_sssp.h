// Crauser's SSSP on the CPU: Dijkstra settling many nodes per iteration (IN/OUT criteria), with per-iteration sets.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gpusched/workloads/graph.h"

namespace gpusched::workloads {

/// Which of Crauser et al.'s criteria decide what an iteration settles (docs/workloads.md, `sssp`).
enum class CrauserCriteria {
    out,   ///< settle v if dist(v) <= min over unsettled u of dist(u) + min out-weight(u) (the paper's kernels)
    in,    ///< settle v if dist(v) - min in-weight(v) <= min over unsettled u of dist(u)
    both,  ///< either
};

/// "out", "in" or "both".
std::string criteria_name(CrauserCriteria criteria);

constexpr std::uint64_t kUnreachable = std::numeric_limits<std::uint64_t>::max();
/// settle_iteration of a node the source does not reach.
constexpr std::uint32_t kNeverSettled = std::numeric_limits<std::uint32_t>::max();

/// One iteration i of the GPU loop: relax(F_i, U_i); minimum(U_i) -> thresholds; update settles F_{i+1}.
struct SsspIteration {
    std::uint32_t frontier = 0;          ///< |F_i|: nodes whose out-edges the relax kernel scans
    std::uint32_t unsettled = 0;         ///< |U_i|: nodes the minimum and update kernels test (reached or not)
    std::uint32_t reached = 0;           ///< of U_i, those with a finite tentative distance after relax
    std::uint64_t edges_scanned = 0;     ///< out-edges of F_i (the relax loop's trip count, summed)
    std::uint64_t edges_relaxed = 0;     ///< of those, edges into U_i (each an atomicMin)
    std::uint32_t settled = 0;           ///< |F_{i+1}|; 0 in the last iteration (no reached node left)
};

/// The result of one SSSP: distances, and for every node the iteration whose frontier it is in
/// (the source: 0; a node settled by iteration i's update: i + 1; unreached: kNeverSettled). From
/// settle_iteration alone, F_i = {v : s(v) = i} and U_i = {v : s(v) > i}.
struct SsspRun {
    std::uint32_t source = 0;
    std::vector<std::uint64_t> distance;          ///< kUnreachable where not reached
    std::vector<std::uint32_t> settle_iteration;
    std::vector<SsspIteration> iterations;        ///< the last one has settled == 0 (the loop's exit test)
};

/// Runs the iteration structure of the paper's kernels on the CPU (priority queues find each
/// threshold and the nodes under it, so a run costs O(m log n), not O(n) per iteration).
/// Throws std::invalid_argument for a source outside the graph.
SsspRun crauser_sssp(const Graph& graph, std::uint32_t source, CrauserCriteria criteria);

/// The smallest weight of each node's out-edges (kUnreachable for none), and of its in-edges.
std::vector<std::uint64_t> min_out_weights(const Graph& graph);
std::vector<std::uint64_t> min_in_weights(const Graph& graph);

}  // namespace gpusched::workloads
