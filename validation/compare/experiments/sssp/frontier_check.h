// The SSSP hard check: the runner's recorded per-iteration sets (frontier.csv) against the CPU reference.
#pragma once

#include <string>
#include <vector>

namespace gpusched::validation {

/// The hard check: every source's per-iteration sets from the CPU reference (crauser_sssp, OUT
/// criterion) against frontier.csv: |F_i|, |U_i|, reached, delta (the minimum's threshold) and
/// |F_{i+1}|, and the iteration count. Any difference is a bug in the runner or the reference.
struct SsspFrontierCheck {
    std::string graph;
    int sources = 0;                ///< sources compared
    long long iterations = 0;       ///< rows compared
    int mismatches = 0;             ///< rows (or iteration counts) that differ
    std::string first_mismatch;     ///< "frontier.csv:LINE: ..." of the first, empty when none
};

/// For every graph in `DIR/frontier.csv` (read from `DIR/graph_<graph>.txt`) and every source it
/// lists: crauser_sssp (OUT criterion) row by row against |F_i|, |U_i|, reached, delta and
/// |F_{i+1}|, plus the iteration count. delta is recomputed from the reference's distances: the
/// minimum over reached nodes of U_i of tentative distance + smallest out-weight (2147483646 for a
/// node without out-edges; 2147483647 when none is reached). One result per graph, by name.
std::vector<SsspFrontierCheck> check_sssp_frontiers(const std::string& dir);

}  // namespace gpusched::validation
