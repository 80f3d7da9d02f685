// Graph files: DIMACS shortest-path `.gr` files and plain `u v w` edge lists, strictly checked.
#pragma once

#include <string>

#include "gpusched/workloads/graph.h"

namespace gpusched::workloads {

/// The two accepted graph file formats (docs/workloads.md, `sssp`).
enum class GraphFormat {
    dimacs,     ///< 9th DIMACS challenge: `c ...` comments, one `p sp NODES ARCS`, then `a U V W` (1-based ids)
    edge_list,  ///< one `U V W` per line (0-based ids), `#` starts a comment; nodes = largest id + 1
};

/// DIMACS for paths ending in ".gr", otherwise an edge list.
GraphFormat graph_format_for(const std::string& path);

/// Reads a graph file. Anything malformed (bad or missing header, out-of-range node id, wrong arc
/// count, negative or non-numeric weight, truncation, binary junk, sizes beyond kMaxGraphNodes /
/// kMaxGraphEdges / kMaxEdgeWeight) throws InputError "PATH:LINE: what is wrong".
Graph read_graph_file(const std::string& path, GraphFormat format);
/// As above, the format from the file name (graph_format_for).
Graph read_graph_file(const std::string& path);

/// Parses graph text held in memory, with the same checks and messages; `source` names it ("PATH").
/// Used by the fuzz targets, which need no files.
Graph parse_graph_text(const std::string& text, const std::string& source, GraphFormat format);

}  // namespace gpusched::workloads
