// The SSSP hard check: the runner's recorded per-iteration sets (frontier.csv) against the CPU reference.
#pragma once

#include <string>
#include <vector>

#include "gpusched/validation/sssp_validation.h"

namespace gpusched::validation {

/// For every graph in `DIR/frontier.csv` (read from `DIR/graph_<graph>.txt`) and every source it
/// lists: crauser_sssp (OUT criterion) row by row against |F_i|, |U_i|, reached, delta and
/// |F_{i+1}|, plus the iteration count. delta is recomputed from the reference's distances: the
/// minimum over reached nodes of U_i of tentative distance + smallest out-weight (2147483646 for a
/// node without out-edges; 2147483647 when none is reached). One result per graph, by name.
std::vector<SsspFrontierCheck> check_sssp_frontiers(const std::string& dir);

}  // namespace gpusched::validation
