// LaunchPipeline: the GPU spec's dispatch latency and per-SM launch costs.
#include "gpusched/sim/engine/launch_pipeline.h"

#include "gpusched/sim/engine/spec_time.h"

namespace gpusched::sim {

LaunchPipeline::LaunchPipeline(const hw::GpuSpec& gpu)
    : latency_(overhead_ps(gpu.block_dispatch_latency_ns)),
      block_launch_(overhead_ps(gpu.sm_block_launch_ns)),
      warp_launch_ps_(gpu.sm_warp_launch_ns.value_or(0) * 1000.0),
      active_(block_launch_ > 0 || warp_launch_ps_ > 0),
      free_(static_cast<std::size_t>(gpu.sm_count), 0) {}

}  // namespace gpusched::sim
