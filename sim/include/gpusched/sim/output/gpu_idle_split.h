// GpuIdleSplit: a run's makespan split into GPU-busy time, launch overhead, host-bound idle time and the time after the last kernel.
#pragma once

#include "gpusched/sim/output/summary_collector.h"
#include "gpusched/support/time.h"

namespace gpusched::sim {

/// The makespan of a run, GPU-wide, from its kernels' ready and end times (summary `s`):
///
///     busy             a kernel ready or running (the union of [ready, end] over kernels)
///     launch_overhead  the GPU idle before a kernel became ready, up to `launch_overhead` per gap
///     host_bound       the rest of those gaps: no kernel on its way (the host's calls, gaps and syncs
///                      had not issued it, or it waited for an event, copy or delay)
///     after            from the last kernel's end to the makespan (copies, delays)
///
/// busy + launch_overhead + host_bound + after = the makespan. For a host timeline, the host's own
/// waits (RunSummary::host_sync_wait, host_threads) say why it issued late.
struct GpuIdleSplit {
    Time busy = 0;
    Time launch_overhead = 0;
    Time host_bound = 0;
    Time after = 0;
};

GpuIdleSplit gpu_idle_split(const RunSummary& s, Time launch_overhead);

}  // namespace gpusched::sim
