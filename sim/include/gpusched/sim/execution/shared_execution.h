// SharedExecution: blocks on an SM share its issue slots; each warp also has a latency-bound floor.
#pragma once

#include <bit>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "gpusched/sim/execution/bandwidth_share.h"
#include "gpusched/sim/execution/execution_model.h"
#include "gpusched/sim/execution/issue_queue.h"
#include "gpusched/sim/execution/mva_memo.h"
#include "gpusched/workloads/cycle_latency.h"

namespace gpusched::sim {

/// The terms of the `shared` model for the warps of one launch when `warps_per_sm` active warps
/// share each of `busy_sms` SMs (SharedExecution::terms): a warp takes about the largest of them,
/// so the largest one is what binds it. Picoseconds, rounded up; 0 for a resource the GPU spec
/// leaves unlimited or the work does not use.
struct ExecutionTerms {
    Time issue = 0;    ///< n x W / (C x f): its share of the SM's issue slots
    Time latency = 0;  ///< L: its latency floor (dependency chains, memory latency)
    Time l1 = 0;       ///< n x l1_wavefronts / (M x f): the SM's L1 data path
    Time l2 = 0;       ///< S x n x (l2_bytes + dram_bytes) / B_L2: the L2 bandwidth
    Time dram = 0;     ///< max(S x n x dram_bytes / B, n x dram_bytes / B_SM): device-memory bandwidth
};

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
///
/// Device-memory bandwidth, shared by all SMs. B = dram_bandwidth_gbps x 10^9 bytes/s
/// (10^-3 bytes per ps). A warp of block b that issues W slots and moves D = dram_bytes bytes
/// moves d_b = D / W bytes per issue slot, spread evenly over its instructions. The demand is
///
///     demand = sum over resident blocks b of  a_b x rate_b x d_b     (bytes per ps)
///
/// (a_b: active warps). When it exceeds B, every block with d_b > 0 progresses at
/// phi x rate_b with phi = B / demand (proportional sharing: each gets bandwidth in
/// proportion to what it asks for, and together they move exactly B); otherwise phi = 1.
/// Blocks with d_b = 0 are unaffected, and a slowed block keeps its share C x f / n of the
/// SM's issue slots (the slots it cannot use are not given to its neighbours). Like warps, a
/// block's demand counts from its dispatch, so phi changes only at model calls. Consequences:
/// a block takes at least a_b x D / B (its bytes at the full bandwidth) and at least its
/// issue time. Not modelled: which bytes hit a cache (the work model says: dram_bytes vs
/// l2_bytes), row-buffer and bank
/// effects, read/write turnaround, latency growing with load (only the throughput cap).
/// Without dram_bandwidth_gbps in the GPU spec the bandwidth is unlimited: dram_bytes is
/// ignored and the model is exactly the one above.
///
/// L2 bandwidth (memory.l2_bandwidth_gbps, optional): every byte a warp moves passes the L2,
/// whether it hits there (l2_bytes) or goes on to DRAM (dram_bytes). The L2 demand
/// sum a_b x rate_b x (l2_bytes + dram_bytes) / W is capped by B_L2 in the same way, on the
/// same virtual clock: phi = min(1, B / demand, B_L2 / demand_L2) for every memory-using block.
/// Without the key, l2_bytes are ignored (hits cost nothing), so results are as before.
///
/// L1 data path (execution.l1_wavefronts_per_cycle, optional): an SM serves M 128-byte
/// L1/shared-memory accesses (wavefronts) per cycle. A warp of block b that needs w_b = l1_wavefronts
/// per W issue slots asks for a_b x rate_b x w_b / W of them; when the SM's blocks together ask
/// for more than M, each such block progresses at psi x rate_b, psi = M / their demand (per SM,
/// recomputed with the rates). Without the key, or for work without wavefronts, psi = 1.
/// With execution.l1_model `queue` the SM's L1 users are the customers of one closed queue
/// instead: a block whose warps pass barriers together (WarpWork::l1_by_block) reaches the path
/// as one customer, other work's warps each as one. Each alone uses the path the fraction u of
/// its time (the mean of their demand / M), and psi = MVA throughput of the customers (think
/// 1 - u, service u) / their number (l1_queue_share): they slow each other before the path is
/// full, and as `cap` once it is.
///
/// Issue model (execution.issue_model). `share`, the default, is the rate_b above. `queue`
/// replaces it by IssueQueue (sim/include/gpusched/sim/execution/issue_queue.h): each of the SM's
/// warp_schedulers_per_sm schedulers issues issue_width warp-instructions per cycle, a warp
/// of block b waits think_b = L_b / W_b - 1 / (issue_width x f) between its instructions, the
/// warps of each scheduler form a closed queue solved by mean-value analysis, and older
/// blocks are served first (on a scheduler holding more than execution.issue_fair_warps warps). So rate_b rises smoothly from the lone warp's W / L to the
/// scheduler's limit, and on a busy SM the oldest blocks finish first (as measured on the
/// H100: validation/data/h100/series_warps/). A block that older ones leave no issue slots
/// progresses at 10^-6 of one scheduler's rate until they leave.
///
/// Work models that know more once the GPU is known (workloads::GpuBoundWork: L2 hits,
/// latencies in cycles) are bound to the GPU once per run, per launch.
///
/// Efficiency: phi is global, so recomputing every DRAM-using block's end at each event would
/// cost O(resident blocks of the whole GPU). Instead (BandwidthShare) a virtual clock
/// V(t) = integral of phi dt advances between calls; a DRAM-using block's remaining work falls
/// by rate_b per unit of V, so its virtual end v_end = V(start) + W / rate_b changes only when
/// rate_b does, i.e. at events on its own SM. Blocks are kept ordered by v_end (ties by SM and
/// slot), and only the earliest gets a real completion event, reissued when phi or the earliest
/// changes. The engine cannot cancel an event, so a block that was once the earliest keeps a
/// live one; any such event that would now fire before that block's end is reissued too (this
/// keeps every run exact; it is rare: the earliest end has to move past it). Per event:
/// O(blocks on the SM) as before, O(log n) per DRAM-using block whose rate changed (n:
/// DRAM-using blocks resident), O(log S) for the per-SM demand sum (S: SMs), O(log n) to find
/// and schedule the earliest end, plus one step per block still in its dispatch latency that
/// could end before it (usually none). Ends are whole picoseconds rounded up (end(v_end) in
/// BandwidthShare); everything is deterministic.
class SharedExecution final : public ExecutionModel {
public:
    /// `catch_up_shortcut` off: every model call brings its SM up to now, even when it is already
    /// (the shortcut is exact: tests/sim/shared_shortcut_test.cpp compares the two).
    SharedExecution(const hw::GpuSpec& gpu, const workloads::Application& app, bool catch_up_shortcut = true);
    [[nodiscard]] std::string name() const override { return "shared"; }
    void block_started(const StartedBlock& block, Time now, CompletionSink& sink) override;
    void block_finished(int sm, int slot, Time now, CompletionSink& sink) override;
    /// The model's terms for `work` (at the GPU's clock: workloads::warp_work_at_clock) with
    /// `warps_per_sm` active warps on each of `busy_sms` SMs: the rates update_sm() caps, each
    /// turned into the time one warp's work takes at that cap alone. A term past the range of
    /// simulated time is kTimeLimit. Needs execution.clock_mhz (0 terms without it).
    static ExecutionTerms terms(const hw::GpuSpec& gpu, const workloads::WarpWork& work, int warps_per_sm,
                                int busy_sms);

    /// The L1 path's slow-down psi of an SM's `blocks` L1 customers under execution.l1_model
    /// `queue` (a block whose warps pass barriers together is one, else each of its active warps),
    /// `load` = their wavefront demand at their own pace / the path's rate (the `cap` model's
    /// demand / M): with u = load / blocks, each alone busy on the path the fraction u of its
    /// time, psi = X / blocks, X = mva_throughput(blocks, max(0, 1 - u), u) (at most 1).
    /// One customer: psi = 1 (u <= 1) or 1 / u; the path saturated: psi -> 1 / load, as `cap`.
    /// Example: 2 blocks of u = 0.38: X = 2 / (0.62 + 0.38 x 1.38) = 1.747, psi = 0.874.
    static double l1_queue_share(int blocks, double load);
    /// The same, its recurrence recalled from `memo` where it was computed before (the same bits).
    static double l1_queue_share(int blocks, double load, MvaMemo& memo);

private:
    struct Running {
        bool live = false;
        bool dram = false;         ///< uses device memory: its progress is in bandwidth_
        int active_warps = 0;
        double remaining = 0;      ///< issue slots left per warp
        double latency_rate = 0;   ///< W / L in slots per ps (0 = no latency floor)
        double rate = 0;           ///< current slots per ps per warp (before phi)
        double bytes_per_slot = 0; ///< d = D / W
        double l2_per_slot = 0;    ///< bytes through L2 per issue slot: (l2_bytes + D) / W
        double l1_per_slot = 0;    ///< L1 wavefronts per issue slot
        bool l1_by_block = false;  ///< its warps queue at the L1 path as one customer (WarpWork::l1_by_block)
        Time begin = 0;            ///< the block's start (dispatch + dispatch latency)
        Time end = 0;
    };
    /// rate_b = min(W / L, share): issue slots per ps of one of its warps, before phi.
    static double warp_rate(const Running& r, double share);
    /// The issue model's rate for the block in `slot` of `sm`: warp_rate() (`share`), or the
    /// SM's IssueQueue (`queue`, after its update()).
    [[nodiscard]] double issue_rate(std::size_t sm, std::size_t slot, const Running& r, double share) const;
    void update_sm(int sm, Time now, CompletionSink& sink);
    /// update_sm() before a change to the SM, unless it was last updated at `now` or all its working
    /// blocks progress on the bandwidth share's clock (then it is a no-op).
    void catch_up(int sm, Time now, CompletionSink& sink);
    /// The block's active warps: the engine's count, or the bound work's where the engine's is the
    /// launch's own work's count (e.g. Min-plus on a GPU with latencies: edge blocks run every warp).
    /// Under the warp-level `min` policy a unit whose block has one warp by the launch's own count
    /// is counted as the bound work's warps too.
    [[nodiscard]] int bound_active_warps(const StartedBlock& b) const;
    Running& at(int sm, int slot) { return running_[static_cast<std::size_t>(sm) * slots_ + static_cast<std::size_t>(slot)]; }
    /// f(slot) for each live slot of SM `s`, in slot order (the order of the sums update_sm() forms):
    /// from the SM's bit mask when at most half its slots are live, else a plain walk of every slot
    /// (cheaper when the SM is full, as with small blocks).
    template <typename F>
    void for_each_live(std::size_t s, F&& f) const {
        if (2 * static_cast<std::size_t>(live_count_[s]) > slots_) {
            for (std::size_t slot = 0; slot < slots_; ++slot)
                if (running_[s * slots_ + slot].live) f(slot);
            return;
        }
        const std::uint64_t* words = &live_bits_[s * slot_words_];
        for (std::size_t w = 0; w < slot_words_; ++w)
            for (std::uint64_t bits = words[w]; bits != 0; bits &= bits - 1)
                f(w * 64 + static_cast<std::size_t>(std::countr_zero(bits)));
    }
    void set_live(int sm, int slot, bool live);

    const workloads::Application& app_;
    double clock_mhz_;
    std::size_t slots_;
    double slots_per_ps_;          ///< C x f
    std::vector<Running> running_;
    std::vector<double> issue_rates_;   ///< update_sm's scratch: each live slot's issue_rate() on the SM at hand
    std::size_t slot_words_;            ///< 64-bit words per SM in live_bits_
    std::vector<std::uint64_t> live_bits_;  ///< per SM: which slots hold a live block
    std::vector<int> live_count_;           ///< per SM: how many
    std::optional<MvaMemo> l1_memo_;        ///< the L1 queue's recurrences (only under execution.l1_model `queue`)
    std::vector<IssueQueue> queues_;  ///< per SM under the `queue` issue model, else empty
    std::unique_ptr<AgeStepMemo> issue_memo_;  ///< `queue`: the schedulers' age-order steps, shared by queues_
    double service_ps_ = 0;           ///< `queue`: ps one scheduler takes per warp-instruction
    double creep_ = 0;                ///< `queue`: a starved block's rate, 10^-6 of one scheduler's
    bool gpu_has_dram_ = false;    ///< the spec limits DRAM bandwidth
    bool gpu_has_l2_ = false;      ///< the spec limits L2 bandwidth
    double l1_per_ps_ = 0;         ///< M x f: L1 wavefronts per ps per SM (0: unlimited)
    bool l1_queue_ = false;        ///< execution.l1_model `queue`
    double sm_dram_per_ps_ = 0;    ///< one SM's DRAM bytes per ps (memory.sm_dram_bandwidth_gbps; 0: unlimited)
    std::vector<std::shared_ptr<const workloads::BlockWork>> works_;  ///< per launch, bound to the GPU
    std::vector<int> warps_per_block_;  ///< per launch: ceil(threads / warp_size)
    std::vector<const workloads::CycleLatencyWork*> cycle_works_;  ///< per launch: works_[i] as one, or nullptr
    std::vector<int> active_warps_;  ///< per SM
    std::vector<int> l1_blocks_;     ///< per SM: resident blocks with L1 wavefronts
    std::vector<Time> last_update_;  ///< per SM
    std::vector<int> own_clock_blocks_;  ///< per SM: working blocks (active warps) not on the bandwidth share's clock
    std::optional<BandwidthShare> bandwidth_;  ///< absent when the GPU spec gives no DRAM bandwidth
    bool catch_up_shortcut_ = true;
};

}  // namespace gpusched::sim
