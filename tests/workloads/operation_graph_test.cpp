// OperationGraph: the compact DAG (operations read from the application, successors in one array).
#include <doctest/doctest.h>

#include <memory>
#include <string>
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
    CHECK(g.kernel_op == std::vector<std::uint32_t>{0, 1, 2, 3});
    CHECK(g.successor_list.size() == 2);  // two edges, no per-operation vectors
    CHECK(g.describe(1) == "operation 1 (kernel on stream 1)");
}

TEST_CASE("operation graph: listed operations; a duplicate edge counts once; a cycle is named") {
    // Stream 0: kernel 0 (id a), record e. Stream 1: wait e, kernel 1 with `after: [a, a]`.
    Application app;
    app.launches = {on_stream(0), on_stream(1)};
    Operation k0;
    k0.launch = 0;
    k0.set_id("a");
    Operation record;
    record.kind = Operation::Kind::record;
    record.set_event("e");
    Operation wait;
    wait.kind = Operation::Kind::wait;
    wait.stream = 1;
    wait.set_event("e");
    Operation k1;
    k1.launch = 1;
    k1.stream = 1;
    k1.set_after({"a", "a"});
    app.operations = {k0, record, wait, k1};
    const OperationGraph g = build_operation_graph(app);
    REQUIRE(g.listed());
    // Edges: 0 -> 1 (stream 0), 1 -> 2 (wait on e), 2 -> 3 (stream 1), 0 -> 3 (after a, twice: once).
    CHECK(successors_of(g, 0) == std::vector<std::size_t>{1, 3});
    CHECK(successors_of(g, 1) == std::vector<std::size_t>{2});
    CHECK(successors_of(g, 2) == std::vector<std::size_t>{3});
    CHECK(g.predecessors == std::vector<std::uint32_t>{0, 1, 1, 2});
    // `after` naming the later kernel closes a cycle 0 -> 3 -> 0 through the ids.
    app.operations[3].set_id("b");
    app.operations[0].set_after({"b"});
    CHECK_THROWS_WITH_AS(build_operation_graph(app),
                         doctest::Contains("the operations' dependencies form a cycle"), InputError);
}

TEST_CASE("operation: 48 bytes, names out of line and copied on write") {
    // kind 1 + pad 3 + stream 4 + launch 8 + copy (direction 1, pinned 1, pad 6, bytes 8) 16 + delay 8
    // + the names' record pointer 8 (its reference count inside the record) = 48 bytes (a million
    // launches with two copies each: 144 MB).
    CHECK(sizeof(Operation) <= 48);
    Operation plain;
    CHECK_FALSE(plain.has_names());
    CHECK(plain.id().empty());
    CHECK(plain.after().empty());
    Operation named = plain;
    named.set_id("a");
    named.add_after("b");
    named.set_where("w.yaml:4");
    Operation copy = named;  // shares the record; writing one leaves the other as it was
    copy.set_id("c");
    CHECK(named.id() == "a");
    CHECK(copy.id() == "c");
    CHECK(copy.after() == std::vector<std::string>{"b"});
    CHECK(copy.where() == "w.yaml:4");
    CHECK_FALSE(plain.has_names());
    const SharedNames shared(copy.names());
    plain.share_names(shared);
    CHECK(&plain.names() == shared.get());
    {
        Operation other = plain;  // a third holder of the record
        CHECK(&other.names() == shared.get());
        other = named;            // lets go of it
        CHECK(other.id() == "a");
    }
    Operation moved = std::move(plain);
    CHECK(moved.where() == "w.yaml:4");  // the record lives while one operation holds it
    CHECK(&moved.names() == shared.get());
}
