// Graphs: the seeded random generator, and the DIMACS / edge-list readers on good and malformed files.
#include <doctest/doctest.h>

#include <string>

#include "gpusched/support/input_error.h"
#include "gpusched/workloads/graph.h"
#include "gpusched/workloads/graph_file.h"

using namespace gpusched;
using namespace gpusched::workloads;

namespace {

std::string data(const std::string& name) { return std::string(GPUSCHED_SOURCE_DIR) + "/tests/workloads/data/sssp/" + name; }

void check_error(const std::string& name, const std::string& message) {
    CAPTURE(name);
    CHECK_THROWS_WITH_AS(read_graph_file(data(name)), (data(name) + message).c_str(), InputError);
}

bool same_edges(const Graph& a, const Graph& b) {
    const auto x = a.edge_list(), y = b.edge_list();
    if (x.size() != y.size() || a.nodes() != b.nodes()) return false;
    for (std::size_t i = 0; i < x.size(); ++i)
        if (x[i].source != y[i].source || x[i].target != y[i].target || x[i].weight != y[i].weight) return false;
    return true;
}

}  // namespace

TEST_CASE("random graphs are deterministic per seed, have the asked mean degree and weights 1..100") {
    const Graph a = random_graph(2000, 8, 7);
    const Graph b = random_graph(2000, 8, 7);
    const Graph c = random_graph(2000, 8, 8);
    CHECK(same_edges(a, b));
    CHECK_FALSE(same_edges(a, c));
    // 2000 x 8 = 16000 expected edges, binomial with sd ~126: well inside 3%.
    CHECK(a.mean_degree() == doctest::Approx(8).epsilon(0.03));
    CHECK(c.mean_degree() == doctest::Approx(8).epsilon(0.03));
    std::uint32_t lo = 1000, hi = 0;
    for (const auto& e : a.edge_list()) {
        CHECK(e.source != e.target);  // no self-loops
        lo = std::min(lo, e.weight);
        hi = std::max(hi, e.weight);
    }
    CHECK(lo == 1);
    CHECK(hi == 100);
    CHECK(random_graph(500, 0.5, 3).mean_degree() == doctest::Approx(0.5).epsilon(0.25));
    CHECK(random_graph(1, 0, 3).edges() == 0);
    CHECK(random_graph(5, 4, 3).edges() == 20);  // degree n - 1: the complete directed graph
    CHECK_THROWS_AS(random_graph(5, 4.5, 3), std::invalid_argument);
    CHECK_THROWS_AS(random_graph(0, 0, 3), std::invalid_argument);
}

TEST_CASE("DIMACS and edge-list files of one graph read the same") {
    const Graph dimacs = read_graph_file(data("tiny.gr"));
    const Graph edges = read_graph_file(data("tiny.txt"));
    CHECK(dimacs.nodes() == 7);
    CHECK(dimacs.edges() == 8);
    CHECK(same_edges(dimacs, edges));
    const auto list = dimacs.edge_list();
    CHECK(list[0].source == 0);
    CHECK(list[0].target == 1);
    CHECK(list[0].weight == 2);
    CHECK(list.back().source == 6);
    CHECK(list.back().target == 0);
    CHECK(graph_format_for("x.gr") == GraphFormat::dimacs);
    CHECK(graph_format_for("x.txt") == GraphFormat::edge_list);
    CHECK(read_graph_file(data("arc_ok.gr")).nodes() == 3);
    // The in-memory parser (used by the fuzz targets) gives the same graph and the same messages.
    CHECK(same_edges(parse_graph_text("p sp 7 0\n", "t", GraphFormat::dimacs), Graph(7, {})));
    CHECK_THROWS_WITH_AS(parse_graph_text("p sp 2 1\na 1 3 1\n", "mem", GraphFormat::dimacs),
                         "mem:2: node id 3 is outside [1, 2]", InputError);
}

TEST_CASE("malformed DIMACS files are InputErrors naming FILE:LINE") {
    check_error("bad_header.gr", ":2: expected the problem line 'p sp NODES ARCS', got 'p sp 3'");
    check_error("arc_before_header.gr", ":1: arc before the problem line 'p sp NODES ARCS'");
    check_error("node_out_of_range.gr", ":3: node id 4 is outside [1, 3]");
    check_error("truncated.gr", ":3: the file ends after 2 of the 3 arcs announced at line 1 (truncated?)");
    check_error("too_many_arcs.gr", ":3: more arcs than the 1 announced at line 1");
    check_error("negative_weight.gr", ":2: negative weight -5 (shortest paths need weights in [0, 2147483647])");
    check_error("nonnumeric_weight.gr", ":2: weight: expected an integer in [0, 2147483647], got 'heavy'");
    check_error("binary.gr", ":2: not a text DIMACS graph (contains NUL bytes)");
    check_error("absurd_nodes.gr", ":1: node count 99999999999 is outside [1, 16777216]");
    check_error("absurd_arcs.gr", ":1: arc count 99999999999 is outside [0, 33554432]");
    check_error("second_header.gr", ":2: a second problem line (the first is at line 1)");
    check_error("unknown_line.gr", ":2: expected a 'c', 'p' or 'a' line, got 'x 1 2'");
    check_error("no_header.gr", ":1: no problem line 'p sp NODES ARCS' in the DIMACS graph");
    CHECK_THROWS_WITH_AS(read_graph_file(data("missing.gr")),
                         (data("missing.gr") + ": cannot read DIMACS graph: No such file or directory").c_str(),
                         InputError);
}

TEST_CASE("malformed edge lists are InputErrors naming FILE:LINE") {
    check_error("edges_two_fields.txt", ":2: expected an edge 'U V WEIGHT' (3 fields), got 2 fields");
    check_error("edges_negative.txt", ":2: negative weight -1 (shortest paths need weights in [0, 2147483647])");
    check_error("edges_out_of_range.txt", ":1: node id 16777216 is outside [0, 16777215]");
    check_error("edges_empty.txt", ":2: no edges in the edge list (expected lines 'U V WEIGHT')");
    check_error("edges_fraction.txt", ":2: weight: expected an integer in [0, 2147483647], got '3.5'");
    check_error("edges_binary.txt", ":2: not a text edge list (invalid UTF-8 byte 0xff at column 1)");
    check_error("edges_heavy.txt", ":1: weight 4294967296 is outside [0, 2147483647]");
}

TEST_CASE("an edge list whose comment announces nodes= and edges= (the runner's) is checked against its rows") {
    const std::string head = "# nodes=4 degree=1 seed=1 edges=3\n";
    CHECK(parse_graph_text(head + "0 1 5\n1 2 5\n2 3 5\n", "g.txt", GraphFormat::edge_list).edges() == 3);
    // Cut between lines: 2 of the 3 edges.
    CHECK_THROWS_WITH_AS(parse_graph_text(head + "0 1 5\n1 2 5\n", "g.txt", GraphFormat::edge_list),
                         "g.txt:3: the edge list ends after 2 edges, but its comment at line 1 announces edges=3",
                         InputError);
    // Cut mid-line: "2 3 5" lost its weight's last digit and its line break, and still parses.
    CHECK_THROWS_WITH_AS(parse_graph_text(head + "0 1 5\n1 2 5\n2 3 4", "g.txt", GraphFormat::edge_list),
                         doctest::Contains("g.txt:4: the last line ends without a line break"), InputError);
    CHECK_THROWS_WITH_AS(parse_graph_text(head + "0 1 5\n1 2 5\n2 4 5\n", "g.txt", GraphFormat::edge_list),
                         "g.txt:4: node id 4 is beyond the nodes=4 of the comment at line 1", InputError);
    // Without such a comment an edge list may end without a line break.
    CHECK(parse_graph_text("0 1 5\n1 2 5", "g.txt", GraphFormat::edge_list).edges() == 2);
}
