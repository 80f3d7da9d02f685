// OperationGraph: an application's operations as a dependency DAG (stream order, events, `after`).
#pragma once

#include <cstddef>
#include <cstdint>
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
/// Built with Boost.Graph and checked: a `wait` on an event no earlier operation records, an
/// `after` naming an unknown id, a duplicated id, a launch used by no or by two kernel
/// operations, and a dependency cycle are InputErrors naming the operation (its `where`).
struct OperationGraph {
    std::vector<Operation> ops;                       ///< issue order
    std::vector<std::uint32_t> predecessors;          ///< per operation: how many must finish first
    std::vector<std::vector<std::size_t>> successors; ///< per operation, ascending, no duplicates
    std::vector<std::size_t> kernel_op;               ///< per launch: its operation's index
};

OperationGraph build_operation_graph(const Application& app);

/// "operation 3 (copy on stream 1, FILE:LINE)": how messages name an operation.
std::string describe_operation(const Operation& op, std::size_t index);

}  // namespace gpusched::workloads
