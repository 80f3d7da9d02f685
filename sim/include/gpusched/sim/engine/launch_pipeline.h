// LaunchPipeline: when a dispatched block starts executing (dispatch latency, each SM's launch pipeline).
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "gpusched/hw/gpu_spec.h"
#include "gpusched/support/time.h"

namespace gpusched::sim {

/// A block dispatched at t becomes ready at t + d (d = block_dispatch_latency_ns). Without
/// a launch pipeline (no sm_block_launch_ns / sm_warp_launch_ns) it starts then. With one,
/// each SM launches one block at a time; a block of w warps ready at r starts at
///
///     start = max(r, free_sm),   then free_sm = start + a + b w
///
/// with a = sm_block_launch_ns, b = sm_warp_launch_ns and free_sm initially 0. So the
/// blocks of one SM in a first wave start a + b w apart, and a lone refill starts d after
/// its slot was freed (the H100 measures 182 ns for 1..32 warps).
class LaunchPipeline final {
public:
    explicit LaunchPipeline(const hw::GpuSpec& gpu);

    /// True when the spec has a launch pipeline (start() must then be asked per block).
    [[nodiscard]] bool active() const { return active_; }
    /// d, in picoseconds.
    [[nodiscard]] Time latency() const { return latency_; }
    /// The start of a block of `warps` warps on `sm` that is ready at `ready`; advances the SM's pipeline.
    Time start(int sm, Time ready, int warps) {
        Time& free_at = free_[static_cast<std::size_t>(sm)];
        const Time start = std::max(ready, free_at);
        free_at = start + block_launch_ + static_cast<Time>(std::llround(warp_launch_ps_ * warps));
        return start;
    }

private:
    Time latency_;
    Time block_launch_;
    double warp_launch_ps_;
    bool active_;             ///< block_launch_ or warp_launch_ps_ is set
    std::vector<Time> free_;  ///< per SM: when its pipeline takes the next block
};

}  // namespace gpusched::sim
