// SharedExecution: blocks on an SM share its issue slots; each warp also has a latency-bound floor.
#pragma once

#include <vector>

#include "gpusched/sim/execution_model.h"

namespace gpusched::sim {

/// DESIGN.md 2.5, the `shared` model. An SM issues C = warp_schedulers_per_sm x issue_width
/// warp-instructions per cycle at clock_mhz. Every active warp of a resident block needs W
/// issue slots and cannot finish sooner than its latency bound L. With n active warps on the
/// SM, a warp of block b progresses at
///
///     rate_b = min(W_b / L_b, C x f / n)        (issue slots per picosecond)
///
/// so a lone or latency-bound warp takes L (flat in warps/SM), and a throughput-bound SM
/// takes n x W / (C x f): linear in warps per SM, which is the interval paper's
/// T_warp x #WarpsPerSM x 32 / #CoresPerSM. Blocks whose warps are all inactive end at once.
///
/// Rates change only when a block starts or ends on the SM; then every block on that SM is
/// advanced to the current time and its end recomputed (O(resident blocks) per event, at
/// most max_blocks_per_sm). Remaining work is kept in double-precision issue slots; ends
/// are rounded up to whole picoseconds. A block makes progress from its start (dispatch +
/// block_dispatch_latency_ns) but counts among the SM's warps from its dispatch. Latency
/// bounds given in cycles (workloads::CycleLatencyWork) are converted at clock_mhz.
/// Not modelled yet: device-memory bandwidth shared across SMs (dram_bytes is ignored).
class SharedExecution final : public ExecutionModel {
public:
    SharedExecution(const hw::GpuSpec& gpu, const workloads::Application& app);
    [[nodiscard]] std::string name() const override { return "shared"; }
    void block_started(const StartedBlock& block, Time now, CompletionSink& sink) override;
    void block_finished(int sm, int slot, Time now, CompletionSink& sink) override;

private:
    struct Running {
        bool live = false;
        int active_warps = 0;
        double remaining = 0;      ///< issue slots left per warp
        double latency_rate = 0;   ///< W / L in slots per ps (0 = no latency floor)
        double rate = 0;           ///< current slots per ps per warp
        Time begin = 0;            ///< the block's start (dispatch + dispatch latency)
        Time end = 0;
    };
    void update_sm(int sm, Time now, CompletionSink& sink);
    Running& at(int sm, int slot) { return running_[static_cast<std::size_t>(sm) * slots_ + static_cast<std::size_t>(slot)]; }

    const workloads::Application& app_;
    double clock_mhz_;
    std::size_t slots_;
    double slots_per_ps_;          ///< C x f
    std::vector<Running> running_;
    std::vector<int> active_warps_;  ///< per SM
    std::vector<Time> last_update_;  ///< per SM
};

}  // namespace gpusched::sim
