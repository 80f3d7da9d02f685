// A GPU spec without the keys the work models bind to (for tests of the paper's unbound work).
#pragma once

#include "gpusched/hw/gpu_spec_io.h"

namespace gpusched::test {

/// The a100 preset less its L2 bandwidth, memory latencies and L1 wavefront rate, and with no
/// rules (every preset has those keys now), so GPU-bound work models have nothing to bind to.
inline hw::GpuSpec gpu_without_memory_keys() {
    hw::GpuSpec bare = hw::resolve_gpu("a100");
    bare.l2_bandwidth_gbps.reset();
    bare.l2_hit_latency_cycles.reset();
    bare.dram_latency_cycles.reset();
    bare.l1_wavefronts_per_cycle.reset();
    bare.rules.clear();
    return bare;
}

}  // namespace gpusched::test
