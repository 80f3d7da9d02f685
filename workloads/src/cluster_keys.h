// The kernel-spec keys of thread-block clusters: `cluster` and `cluster_nonportable` (internal to workloads).
#pragma once

#include "gpusched/workloads/kernel_launch.h"
#include "gpusched/workloads/spec_args.h"

namespace gpusched::workloads {

/// Reads `cluster` (N, XxY or XxYxZ, each 1..16) and `cluster_nonportable` (0 or 1, only with
/// `cluster`) into `launch`; the GPU's limits are checked when a simulation starts.
void apply_cluster_keys(SpecArgs& args, KernelLaunch& launch);

/// A cluster shape must divide the grid in every dimension (CUDA refuses the launch otherwise):
/// fails naming `cluster` and the grid when it does not.
void check_cluster_divides_grid(const SpecArgs& args, const KernelLaunch& launch);

}  // namespace gpusched::workloads
