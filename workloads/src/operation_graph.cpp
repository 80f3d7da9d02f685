// The application DAG: edges from stream order, event record/wait pairs and `after`, checked with Boost.Graph.
#include "gpusched/workloads/operation_graph.h"

#include <algorithm>
#include <map>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/strong_components.hpp>

#include "gpusched/support/input_error.h"

namespace gpusched::workloads {

namespace {

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;

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
void reject_cycles(const Graph& g, const std::vector<Operation>& ops) {
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
            names += (i ? ", " : "") + describe_operation(ops[cycle[i]], cycle[i]);
        if (cycle.size() > 4) names += ", ... (" + std::to_string(cycle.size()) + " in all)";
        throw InputError("the operations' dependencies form a cycle, so none of them can ever start: " + names);
    }
}

}  // namespace

std::string describe_operation(const Operation& op, std::size_t index) {
    std::string out = "operation " + std::to_string(index) + " (" + kind_name(op.kind);
    if (!op.id.empty()) out += " '" + op.id + "'";
    out += " on stream " + std::to_string(op.stream);
    if (!op.where.empty()) out += ", " + op.where;
    return out + ")";
}

OperationGraph build_operation_graph(const Application& app) {
    OperationGraph out;
    out.ops = app.issue_order();
    const std::size_t n = out.ops.size();
    Graph g(n);
    std::map<int, std::size_t> last_on_stream;
    std::map<std::string, std::size_t> last_record;
    std::map<std::string, std::size_t> by_id;
    out.kernel_op.assign(app.launches.size(), n);
    for (std::size_t i = 0; i < n; ++i) {
        const Operation& op = out.ops[i];
        if (!op.id.empty() && !by_id.emplace(op.id, i).second)
            throw InputError(describe_operation(op, i) + ": id '" + op.id + "' is already used by " +
                             describe_operation(out.ops[by_id[op.id]], by_id[op.id]));
        if (op.kind == Operation::Kind::kernel) {
            if (op.launch >= app.launches.size() || out.kernel_op[op.launch] != n)
                throw InputError(describe_operation(op, i) + ": refers to launch " + std::to_string(op.launch) +
                                 ", which does not exist or belongs to another operation");
            out.kernel_op[op.launch] = i;
        }
        if (const auto it = last_on_stream.find(op.stream); it != last_on_stream.end()) boost::add_edge(it->second, i, g);
        last_on_stream[op.stream] = i;
        if (op.kind == Operation::Kind::record) last_record[op.event] = i;
        if (op.kind == Operation::Kind::wait) {
            const auto it = last_record.find(op.event);
            if (it == last_record.end())
                throw InputError(describe_operation(op, i) + ": waits for event '" + op.event +
                                 "', which no earlier operation records (a dangling dependency)");
            boost::add_edge(it->second, i, g);
        }
    }
    for (std::size_t launch = 0; launch < out.kernel_op.size(); ++launch)
        if (out.kernel_op[launch] == n)
            throw InputError("launch " + std::to_string(launch) + " (" + app.launches[launch].name +
                             ") is not issued by any operation");
    for (std::size_t i = 0; i < n; ++i)
        for (const std::string& id : out.ops[i].after) {
            const auto it = by_id.find(id);
            if (it == by_id.end())
                throw InputError(describe_operation(out.ops[i], i) + ": 'after' names '" + id +
                                 "', which no operation has as its id (a dangling dependency)");
            boost::add_edge(it->second, i, g);
        }
    reject_cycles(g, out.ops);
    out.predecessors.assign(n, 0);
    out.successors.assign(n, {});
    for (std::size_t v = 0; v < n; ++v) {
        auto& next = out.successors[v];
        for (auto [e, end] = boost::out_edges(v, g); e != end; ++e) next.push_back(boost::target(*e, g));
        std::sort(next.begin(), next.end());
        next.erase(std::unique(next.begin(), next.end()), next.end());
        for (std::size_t w : next) ++out.predecessors[w];
    }
    return out;
}

}  // namespace gpusched::workloads
