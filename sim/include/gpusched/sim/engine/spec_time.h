// GPU spec overheads, optional nanoseconds, as the engine's integer picoseconds.
#pragma once

#include <cmath>
#include <optional>

#include "gpusched/hw/gpu_spec.h"
#include "gpusched/support/time.h"
#include "gpusched/workloads/application.h"

namespace gpusched::sim {

/// An overhead of the GPU spec in picoseconds, rounded to nearest; 0 when the spec omits it.
inline Time overhead_ps(const std::optional<double>& ns) {
    return ns ? static_cast<Time>(std::llround(*ns * 1000.0)) : 0;
}

/// A kernel's start (its turn on its stream, issued, dependencies done) to ready to dispatch:
/// graph_kernel_launch_ns for the kernels of a CUDA graph when the spec gives it, else kernel_launch_ns.
inline Time kernel_launch_ps(const hw::GpuSpec& gpu, workloads::HostIssue issue) {
    if (issue == workloads::HostIssue::graph && gpu.graph_kernel_launch_ns) return overhead_ps(gpu.graph_kernel_launch_ns);
    return overhead_ps(gpu.kernel_launch_ns);
}

}  // namespace gpusched::sim
