// Which of a run's GPU numbers come from a documented rule rather than data: the notes a simulation prints.
#pragma once

#include <string>
#include <vector>

#include "gpusched/hw/gpu_spec.h"
#include "gpusched/workloads/application.h"
#include "gpusched/workloads/gpu_numbers.h"

namespace gpusched::workloads {

/// Every GPU number a run of `app` on `gpu` reads: the launch and dispatch overheads, the host
/// launch interval (host-call issue), the graph launch overhead (graph issue), the kernel start
/// interval, the host link (copies) and, with `shared_execution`, the
/// bandwidths, the L1 data path, the issue model and what each launch's work derives on the GPU
/// (GpuBoundWork::derivation). Each once, in that order.
std::vector<GpuNumberUse> run_gpu_numbers(const Application& app, const hw::GpuSpec& gpu, bool shared_execution);

/// One note per rule among run_gpu_numbers(): "GPU 'k20': rule R10 ...: overheads.kernel_launch_ns
/// 1418, ..." (none when the run depends on data only); and one when a CUDA graph (issue: graph)
/// runs on a GPU without overheads.graph_kernel_launch_ns.
std::vector<std::string> ruled_number_notes(const Application& app, const hw::GpuSpec& gpu, bool shared_execution);

/// The note for a preset default the caller used ("policy most-room") when `gpu.rules` gives it
/// by a rule (`defaults.policy`, `defaults.execution`); nullopt when it is data or not ruled.
std::optional<std::string> ruled_default_note(const hw::GpuSpec& gpu, const std::string& key, const std::string& value);

}  // namespace gpusched::workloads
