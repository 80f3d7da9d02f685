// Work models whose per-warp work depends on the GPU they run on (L2 hits, latencies in cycles, occupancy).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "gpusched/hw/gpu_spec.h"
#include "gpusched/workloads/gpu_numbers.h"
#include "gpusched/workloads/kernel_launch.h"
#include "gpusched/workloads/launch_list.h"

namespace gpusched::workloads {

/// What a work model may use of the GPU it is bound to: the spec, and how many blocks of its
/// launch are resident at once (SMs x blocks per SM from the occupancy rules: one wave).
struct GpuContext {
    const hw::GpuSpec& gpu;
    std::int64_t resident_blocks = 1;
};

/// How a work model got its per-warp work on a GPU: one line per derived number (what it is,
/// from which spec key or chain) and every GPU number it read, with its provenance.
struct WorkDerivation {
    std::vector<std::string> steps;
    std::vector<GpuNumberUse> gpu_numbers;
};

/// Implemented (besides BlockWork) by work models that can say more once the GPU is known, e.g.
/// which global accesses hit in L2 and how long a load waits. A spec is parsed before a GPU is
/// chosen, so the `shared` execution model binds each launch's work to its GPU once per run.
class GpuBoundWork {
public:
    virtual ~GpuBoundWork() = default;
    /// The work on `context.gpu`; nullptr when there is nothing to bind (the work as it is).
    [[nodiscard]] virtual std::shared_ptr<const BlockWork> bind(const GpuContext& context) const = 0;
    /// How bind() derives the work on `context.gpu` (`gpusched show work`, notes on ruled numbers);
    /// throws what bind() throws.
    [[nodiscard]] virtual WorkDerivation derivation(const GpuContext& context) const = 0;
};

/// The GpuContext of `launch` on `gpu`: resident blocks from its occupancy there.
GpuContext gpu_context(const KernelLaunch& launch, const hw::GpuSpec& gpu);

/// `launch.work` bound to `gpu` (resident blocks from the occupancy of `launch` on it) when it
/// is a GpuBoundWork that binds; otherwise `launch.work` itself.
std::shared_ptr<const BlockWork> work_on_gpu(const KernelLaunch& launch, const hw::GpuSpec& gpu);

/// The work an execution model named `execution` runs for `launch`: under `shared` its work
/// bound to `gpu` (work_on_gpu), under any other model `launch.work` as it is.
std::shared_ptr<const BlockWork> work_as_run(const KernelLaunch& launch, const hw::GpuSpec& gpu,
                                             const std::string& execution);

/// work_as_run for each launch of `launches`, each distinct work bound once (launches of one
/// kernel share it). Views that count a block's active
/// warps read these, so they count what the simulation ran.
std::vector<std::shared_ptr<const BlockWork>> works_as_run(const LaunchList& launches, const hw::GpuSpec& gpu,
                                                           const std::string& execution);

}  // namespace gpusched::workloads
