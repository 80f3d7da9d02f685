// OperationGraph: the compact DAG (operations read from the application, successors in one array).
#include <doctest/doctest.h>

#include <vector>

#include "gpusched/support/input_error.h"
#include "gpusched/workloads/operation_graph.h"

using namespace gpusched;
using namespace gpusched::workloads;

namespace {

KernelLaunch on_stream(int stream) {
    KernelLaunch k;
    k.name = "k";
    k.stream = stream;
    return k;
}

std::vector<std::size_t> successors_of(const OperationGraph& g, std::size_t op) {
    const auto s = g.successors(op);
    return {s.begin(), s.end()};
}

}  // namespace

TEST_CASE("operation graph: unlisted operations are the launches, chained per stream") {
    // Launches on streams 0, 1, 0, 0: edges 0 -> 2 -> 3 (stream 0); launch 1 alone on stream 1.
    Application app;
    app.launches = {on_stream(0), on_stream(1), on_stream(0), on_stream(0)};
    const OperationGraph g = build_operation_graph(app);
    REQUIRE(g.size() == 4);
    CHECK_FALSE(g.listed());
    CHECK(g.kind(1) == Operation::Kind::kernel);
    CHECK(g.stream(1) == 1);
    CHECK(g.launch(3) == 3);
    CHECK(successors_of(g, 0) == std::vector<std::size_t>{2});
    CHECK(successors_of(g, 1).empty());
    CHECK(successors_of(g, 2) == std::vector<std::size_t>{3});
    CHECK(g.predecessors == std::vector<std::uint32_t>{0, 0, 1, 1});
    CHECK(g.kernel_op == std::vector<std::size_t>{0, 1, 2, 3});
    CHECK(g.successor_list.size() == 2);  // two edges, no per-operation vectors
    CHECK(g.describe(1) == "operation 1 (kernel on stream 1)");
}

TEST_CASE("operation graph: listed operations; a duplicate edge counts once; a cycle is named") {
    // Stream 0: kernel 0 (id a), record e. Stream 1: wait e, kernel 1 with `after: [a, a]`.
    Application app;
    app.launches = {on_stream(0), on_stream(1)};
    Operation k0;
    k0.launch = 0;
    k0.id = "a";
    Operation record;
    record.kind = Operation::Kind::record;
    record.event = "e";
    Operation wait;
    wait.kind = Operation::Kind::wait;
    wait.stream = 1;
    wait.event = "e";
    Operation k1;
    k1.launch = 1;
    k1.stream = 1;
    k1.after = {"a", "a"};
    app.operations = {k0, record, wait, k1};
    const OperationGraph g = build_operation_graph(app);
    REQUIRE(g.listed());
    // Edges: 0 -> 1 (stream 0), 1 -> 2 (wait on e), 2 -> 3 (stream 1), 0 -> 3 (after a, twice: once).
    CHECK(successors_of(g, 0) == std::vector<std::size_t>{1, 3});
    CHECK(successors_of(g, 1) == std::vector<std::size_t>{2});
    CHECK(successors_of(g, 2) == std::vector<std::size_t>{3});
    CHECK(g.predecessors == std::vector<std::uint32_t>{0, 1, 1, 2});
    // `after` naming the later kernel closes a cycle 0 -> 3 -> 0 through the ids.
    app.operations[3].id = "b";
    app.operations[0].after = {"b"};
    CHECK_THROWS_WITH_AS(build_operation_graph(app),
                         doctest::Contains("the operations' dependencies form a cycle"), InputError);
}
