// The application DAG: edges from stream order, event record/wait pairs and `after`, checked with Boost.Graph.
#include "gpusched/workloads/operation_graph.h"

#include <algorithm>
#include <limits>
#include <map>
#include <utility>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/strong_components.hpp>

#include "gpusched/support/input_error.h"

namespace gpusched::workloads {

namespace {

using DependencyGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;

/// The most operations, and dependencies, the graph's 32-bit indices hold.
constexpr std::size_t kMaxIndex = std::numeric_limits<std::uint32_t>::max();

const char* kind_name(Operation::Kind kind) {
    switch (kind) {
        case Operation::Kind::kernel: return "kernel";
        case Operation::Kind::copy: return "copy";
        case Operation::Kind::delay: return "delay";
        case Operation::Kind::record: return "record";
        case Operation::Kind::wait: return "wait";
    }
    return "operation";
}

/// Throws naming the operations of the first dependency cycle (a strongly connected
/// component of more than one operation, or one that depends on itself).
void reject_cycles(const DependencyGraph& g, const OperationGraph& ops) {
    const std::size_t n = ops.size();
    std::vector<std::size_t> component(n);
    const std::size_t count = boost::strong_components(
        g, boost::make_iterator_property_map(component.begin(), boost::get(boost::vertex_index, g)));
    std::vector<std::vector<std::size_t>> members(count);
    for (std::size_t v = 0; v < n; ++v) members[component[v]].push_back(v);
    for (std::size_t v = 0; v < n; ++v) {
        const auto& cycle = members[component[v]];
        bool self_loop = false;
        for (auto [e, end] = boost::out_edges(v, g); e != end; ++e) self_loop = self_loop || boost::target(*e, g) == v;
        if (cycle.size() < 2 && !self_loop) continue;
        std::string names;
        for (std::size_t i = 0; i < cycle.size() && i < 4; ++i)
            names += (i ? ", " : "") + ops.describe(cycle[i]);
        if (cycle.size() > 4) names += ", ... (" + std::to_string(cycle.size()) + " in all)";
        throw InputError("the operations' dependencies form a cycle, so none of them can ever start: " + names);
    }
}

/// Successors from the edges, per operation ascending without duplicates, and the predecessor counts.
void link_successors(OperationGraph& out, const std::vector<std::pair<std::size_t, std::size_t>>& edges, std::size_t n) {
    if (edges.size() > kMaxIndex)
        throw InputError("the operations have more than " + std::to_string(kMaxIndex) + " dependencies");
    std::vector<std::size_t> begin(n + 1, 0);
    for (const auto& edge : edges) ++begin[edge.first + 1];
    for (std::size_t v = 0; v < n; ++v) begin[v + 1] += begin[v];
    std::vector<std::uint32_t> list(edges.size());
    std::vector<std::size_t> fill(begin.begin(), begin.end() - 1);
    for (const auto& [from, to] : edges) list[fill[from]++] = static_cast<std::uint32_t>(to);
    out.predecessors.assign(n, 0);
    out.successor_begin.assign(n + 1, 0);
    std::uint32_t kept = 0;
    for (std::size_t v = 0; v < n; ++v) {
        const auto first = list.begin() + static_cast<std::ptrdiff_t>(begin[v]);
        const auto last = list.begin() + static_cast<std::ptrdiff_t>(begin[v + 1]);
        std::sort(first, last);
        const auto unique_end = std::unique(first, last);
        for (auto it = first; it != unique_end; ++it) {
            list[kept++] = *it;
            ++out.predecessors[*it];
        }
        out.successor_begin[v + 1] = kept;
    }
    list.resize(kept);
    list.shrink_to_fit();
    out.successor_list = std::move(list);
}

/// True when every operation can start (Kahn's algorithm: no dependency cycle).
bool topologically_ordered(const OperationGraph& graph) {
    std::vector<std::uint32_t> waiting = graph.predecessors;
    std::vector<std::size_t> ready;
    for (std::size_t v = 0; v < waiting.size(); ++v)
        if (waiting[v] == 0) ready.push_back(v);
    std::size_t started = 0;
    while (!ready.empty()) {
        const std::size_t v = ready.back();
        ready.pop_back();
        ++started;
        for (const std::uint32_t w : graph.successors(v))
            if (--waiting[w] == 0) ready.push_back(w);
    }
    return started == waiting.size();
}

}  // namespace

std::string describe_operation(const Operation& op, std::size_t index) {
    std::string out = "operation " + std::to_string(index) + " (" + kind_name(op.kind);
    if (!op.id().empty()) out += " '" + op.id() + "'";
    out += " on stream " + std::to_string(op.stream);
    if (!op.where().empty()) out += ", " + op.where();
    return out + ")";
}

std::string OperationGraph::describe(std::size_t op) const {
    if (listed()) return describe_operation(app->operations[op], op);
    Operation kernel;
    kernel.launch = op;
    kernel.stream = app->launches[op].stream;
    return describe_operation(kernel, op);
}

OperationGraph build_operation_graph(const Application& app) {
    OperationGraph out;
    out.app = &app;
    const std::size_t n = out.size();
    if (n > kMaxIndex) throw InputError("the workload has more than " + std::to_string(kMaxIndex) + " operations");
    std::vector<std::pair<std::size_t, std::size_t>> edges;  // (from, to), in the order they are found
    std::map<int, std::size_t> last_on_stream;
    std::map<std::string, std::size_t> last_record;
    std::map<std::string, std::size_t> by_id;
    out.kernel_op.assign(app.launches.size(), static_cast<std::uint32_t>(n));
    Operation unlisted;  // operation i when the application lists none: launch i's kernel
    const auto op_at = [&](std::size_t i) -> const Operation& {
        if (out.listed()) return app.operations[i];
        unlisted.launch = i;
        unlisted.stream = app.launches[i].stream;
        return unlisted;
    };
    for (std::size_t i = 0; i < n; ++i) {
        const Operation& op = op_at(i);
        if (!op.id().empty() && !by_id.emplace(op.id(), i).second)
            throw InputError(describe_operation(op, i) + ": id '" + op.id() + "' is already used by " +
                             describe_operation(app.operations[by_id[op.id()]], by_id[op.id()]));
        if (op.kind == Operation::Kind::kernel) {
            if (op.launch >= app.launches.size() || out.kernel_op[op.launch] != n)
                throw InputError(describe_operation(op, i) + ": refers to launch " + std::to_string(op.launch) +
                                 ", which does not exist or belongs to another operation");
            out.kernel_op[op.launch] = static_cast<std::uint32_t>(i);
        }
        if (const auto it = last_on_stream.find(op.stream); it != last_on_stream.end()) edges.emplace_back(it->second, i);
        last_on_stream[op.stream] = i;
        if (op.kind == Operation::Kind::record) last_record[op.event()] = i;
        if (op.kind == Operation::Kind::wait) {
            const auto it = last_record.find(op.event());
            if (it == last_record.end())
                throw InputError(describe_operation(op, i) + ": waits for event '" + op.event() +
                                 "', which no earlier operation records (a dangling dependency)");
            edges.emplace_back(it->second, i);
        }
    }
    for (std::size_t launch = 0; launch < out.kernel_op.size(); ++launch)
        if (out.kernel_op[launch] == n)
            throw InputError("launch " + std::to_string(launch) + " (" + app.launches[launch].name +
                             ") is not issued by any operation");
    if (out.listed())
        for (std::size_t i = 0; i < n; ++i)
            for (const std::string& id : app.operations[i].after()) {
                const auto it = by_id.find(id);
                if (it == by_id.end())
                    throw InputError(describe_operation(app.operations[i], i) + ": 'after' names '" + id +
                                     "', which no operation has as its id (a dangling dependency)");
                edges.emplace_back(it->second, i);
            }
    link_successors(out, edges, n);
    if (!topologically_ordered(out)) {  // a cycle: name it as the strong components find it
        DependencyGraph g(n);
        for (const auto& [from, to] : edges) boost::add_edge(from, to, g);
        reject_cycles(g, out);
    }
    return out;
}

}  // namespace gpusched::workloads
