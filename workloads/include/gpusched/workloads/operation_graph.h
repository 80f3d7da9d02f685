// OperationGraph: an application's operations as a dependency DAG (stream order, events, `after`).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "gpusched/workloads/application.h"

namespace gpusched::workloads {

/// The dependencies between an application's operations:
///
///     stream order:  each operation waits for the previous one on its stream
///     events:        `wait E` waits for the latest `record E` issued before it (CUDA's
///                    cudaStreamWaitEvent semantics), on whatever stream that was
///     after:         an operation waits for every operation whose id it lists
///
/// Checked: a `wait` on an event no earlier operation records, an `after` naming an unknown
/// id, a duplicated id, a launch used by no or by two kernel operations, and a dependency
/// cycle (found with Boost.Graph's strong components) are InputErrors naming the operation
/// (its `where`).
///
/// Compact, for a million launches: the operations are read from the application (never
/// copied; Application::issue_order() without making it), and the successors are one
/// array with an offset per operation, all 32-bit (more than 2^32 - 1 operations or dependencies
/// is an InputError; the simulator's events name fewer still). The application must outlive the graph.
struct OperationGraph {
    const Application* app = nullptr;
    std::vector<std::uint32_t> predecessors;     ///< per operation: how many must finish first
    std::vector<std::uint32_t> successor_begin;  ///< per operation + 1: its successors' range in successor_list
    std::vector<std::uint32_t> successor_list;   ///< per operation ascending, no duplicates
    std::vector<std::uint32_t> kernel_op;        ///< per launch: its operation's index

    /// Operations in issue order.
    [[nodiscard]] std::size_t size() const { return listed() ? app->operations.size() : app->launches.size(); }
    /// True when the application lists its operations; otherwise operation i is launch i's kernel.
    [[nodiscard]] bool listed() const { return !app->operations.empty(); }
    [[nodiscard]] Operation::Kind kind(std::size_t op) const {
        return listed() ? app->operations[op].kind : Operation::Kind::kernel;
    }
    [[nodiscard]] int stream(std::size_t op) const {
        return listed() ? app->operations[op].stream : app->launches[op].stream;
    }
    /// The launch of a kernel operation.
    [[nodiscard]] std::size_t launch(std::size_t op) const { return listed() ? app->operations[op].launch : op; }
    /// The operation as listed (copies, delays, events exist only in listed operations).
    [[nodiscard]] const Operation& listed_op(std::size_t op) const { return app->operations[op]; }
    [[nodiscard]] std::span<const std::uint32_t> successors(std::size_t op) const {
        return {successor_list.data() + successor_begin[op], successor_begin[op + 1] - successor_begin[op]};
    }
    /// describe_operation of operation `op`.
    [[nodiscard]] std::string describe(std::size_t op) const;
};

OperationGraph build_operation_graph(const Application& app);

/// "operation 3 (copy on stream 1, FILE:LINE)": how messages name an operation.
std::string describe_operation(const Operation& op, std::size_t index);

}  // namespace gpusched::workloads
