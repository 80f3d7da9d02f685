// OpShapes: the CPU operators of a Kineto trace (record_shapes=True) and which operator launched each kernel.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "gpusched/importers/kineto_reader.h"

namespace gpusched::importers {

/// One input of an operator as the profiler records it: its `Input type` string, its `Input Dims`
/// entry (when that entry is a list of integers) and its `Concrete Inputs` text.
struct OpInput {
    std::string type;                  ///< "float", "c10::BFloat16", "Scalar", "TensorList", "" ...
    std::vector<std::int64_t> dims;    ///< empty: a scalar, a 0-dim tensor, or no shape
    bool dims_are_list = false;        ///< the entry was a list of integers (possibly empty)
    std::string concrete;              ///< "[1, 1]", "2", "" ...
};

/// A cpu_op event: an ATen operator and its shapes.
struct CpuOp {
    std::string name;
    std::string thread;                ///< pid and tid as the trace writes them
    double start_us = 0, end_us = 0;   ///< ts and ts + dur (the trace's microseconds)
    std::int64_t external_id = -1;
    std::vector<OpInput> inputs;
    bool has_shapes = false;           ///< the event has `Input Dims`
    std::optional<double> flops;       ///< args.flops
    int parent = -1;                   ///< the innermost operator of the same thread enclosing this one
};

/// The operators of a trace and the kernel -> operator links.
struct OpShapes {
    std::vector<CpuOp> ops;
    std::unordered_map<std::uint64_t, int> kernel_op;  ///< traceEvents index of a kernel -> index in ops
    std::size_t ops_with_shapes = 0;

    /// The operator that launched the kernel at traceEvents[index], or -1.
    [[nodiscard]] int op_of_kernel(std::uint64_t event_index) const {
        const auto it = kernel_op.find(event_index);
        return it == kernel_op.end() ? -1 : it->second;
    }
};

/// A second streamed pass over the trace (the same caps as read_kineto_trace) keeping cpu_op events
/// and linking each kernel to its operator: the kernel's `args["External id"]` is the operator's; a
/// kernel without one is linked through its `correlation` to the runtime call, and that call to the
/// innermost operator of its thread that encloses it in time.
OpShapes read_op_shapes(const std::string& path, const ReadLimits& limits = {});

/// Builds the parent links and the kernel links of `shapes` from what was read (exposed for tests).
struct KernelLink {
    std::uint64_t event_index = 0;
    std::int64_t external_id = -1;
    std::int64_t correlation = -1;
};
struct RuntimeLink {
    std::int64_t correlation = -1;
    std::string thread;
    double start_us = 0;
};
void link_op_shapes(OpShapes& shapes, const std::vector<KernelLink>& kernels, const std::vector<RuntimeLink>& runtime);

}  // namespace gpusched::importers
