// A process-wide cache of SSSP instances' tables: one Crauser run and its tables per graph, source and kernel configuration.
#pragma once

#include <cstdint>
#include <memory>

#include "gpusched/workloads/graph.h"
#include "gpusched/workloads/sssp_work.h"

namespace gpusched::workloads {

/// The tables of the SSSP instance from `source` on `graph` under `config`:
///
///     SsspTables(graph, crauser_sssp(graph, source, config.criteria), config)
///
/// computed once per process and shared afterwards. Every `sssp` spec reads its graph file again, and a
/// sweep or validation section simulates one graph under many stream counts, carveouts and modes: each
/// of those configurations asked for the same Crauser runs and tables. A hit needs the same nodes, the
/// same edges in the same order (compared in full, not only by a hash), the same source and an equal
/// configuration, so it returns what a fresh computation would. Thread-safe; bounded: the 4 graphs used
/// last, 4096 instances each, 256 MiB of tables in all (SsspTables::table_bytes; the graphs used longest
/// ago give way first, and tables larger than that are returned without being kept); a graph of more than
/// 2^21 edges is not kept at all (its tables are computed for each call, as without the cache). SsspTables are
/// immutable apart from their own thread-safe caches.
[[nodiscard]] std::shared_ptr<const SsspTables> cached_sssp_tables(const Graph& graph, std::uint32_t source,
                                                                   const SsspKernelConfig& config);

}  // namespace gpusched::workloads
