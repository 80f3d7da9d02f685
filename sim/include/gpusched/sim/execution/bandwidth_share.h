// BandwidthShare: device-memory bandwidth shared by the DRAM-using blocks of all SMs, on a virtual clock.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "gpusched/support/time.h"
#include "gpusched/sim/execution/execution_model.h"
#include "gpusched/sim/execution/pending_groups.h"
#include "gpusched/sim/grouped_min_heap.h"
#include "gpusched/sim/indexed_heap.h"

namespace gpusched::sim {

/// The bandwidth bookkeeping of SharedExecution (its header gives the model). Every DRAM-using
/// block is slowed by the same factor phi = min(1, B / demand), which changes only when a model
/// call changes the demand. The virtual clock
///
///     V(t) = V0 + phi x (t - t0)        (t0: the last change of phi, V0 = V(t0))
///
/// is the integral of phi, so a block progressing at `rate` issue slots per unit of V finishes
/// at a fixed virtual time v_end = V(start) + slots / rate, whatever phi does meanwhile; v_end
/// moves only when the block's own rate changes (an event on its SM). The real end of v_end is
///
///     end(v_end) = t0 + ceil((v_end - V0) / phi)        (whole picoseconds, rounded up)
///
/// which is monotone in v_end, so the block with the least v_end (a heap, ties by SM and
/// slot) ends first. Only it needs a correct completion event. Blocks dispatched but not yet
/// started (dispatch latency) wait apart and join the ordered set once their start has passed:
/// V(start) is known then, as phi is constant between calls. Until then a pending block
/// ends at start + length / phi = (start + length) + length (1/phi - 1) (length = slots /
/// rate). Pending blocks with the same (start, length) end together, and of those only the
/// least id can be the earliest (ties go by id), so they are kept as groups, one per distinct
/// (start, length) (PendingGroups), ordered by start + length: with l_min at most the least
/// pending length (the least length given to a pending block since none was pending: no heap
/// of lengths to keep), finding the earliest end looks only at the groups whose start + length +
/// l_min (1/phi - 1) is below the best end so far. A launch's blocks dispatched together form a few
/// groups (one per resident count on their SMs), so a dispatch pass of n blocks costs
/// O(n log n), not O(n^2).
///
/// The engine cannot cancel an event: a block given an end keeps a live event until it ends,
/// and when a later block overtakes it or phi falls, that event may be too early. reschedule()
/// therefore keeps every live event that is not after the earliest end exact (reissuing it
/// with the block's current end); a later one cannot fire before the next call, which repeats
/// the check. Usually that is only the earliest block itself.
///
/// A second bandwidth, of the L2 (optional), works the same way: the model sets each SM's L2
/// demand too, and phi = min(1, B / demand, B_L2 / demand_L2): one factor for every
/// memory-using block, whichever of the two binds.
///
/// The demand is a sum per SM, set by the execution model, kept in a segment tree: each
/// update is O(log S) and the total is the same for the same per-SM values, whatever the order
/// of updates (no drift). When the last DRAM-using block ends, the clock is re-anchored
/// (V = 0 at the next block's dispatch), so a launch on an idle GPU computes the same ends
/// wherever it lies in time (memoised launches rely on this).
class BandwidthShare {
public:
    /// `bytes_per_ps`: the bandwidth B, `l2_bytes_per_ps`: B_L2 (each 0: unlimited, not both);
    /// `slots_per_sm`: slots per SM (blocks are named by SM and slot). `prune_by_length` off: l_min = 0,
    /// the weakest pruning (end >= start + length alone), the reference the pruned search is tested
    /// against (tests/sim/bandwidth_share_pruning_test.cpp).
    BandwidthShare(int sm_count, int slots_per_sm, double bytes_per_ps, double l2_bytes_per_ps = 0,
                   bool prune_by_length = true);

    /// The model's calls come in time order; call this first in each: blocks whose start is <= now begin.
    void advance(Time now);
    /// A DRAM-using block dispatched at `now` starts at `start` (>= now) with `slots` issue slots per warp to
    /// issue at `rate` slots per unit of V.
    void add(int sm, int slot, Time now, Time start, double slots, double rate);
    /// The block's rate becomes `rate` at `now` (its SM's warp count changed).
    void set_rate(int sm, int slot, Time now, double rate);
    /// The block has ended (its completion event fired).
    void remove(int sm, int slot);
    /// The DRAM and L2 demand of the blocks on `sm`: sums of active warps x rate x bytes per issue
    /// slot, bytes per ps (the L2 demand counts every byte that passes L2: hits and DRAM bytes).
    void set_demand(int sm, double bytes_per_ps, double l2_bytes_per_ps = 0);
    /// After the other calls of one model call: the new phi, then completion events as described above.
    void reschedule(Time now, CompletionSink& sink);

    /// The current slow-down factor phi (1 when the demand fits the bandwidth).
    [[nodiscard]] double factor() const { return phi_; }

private:
    struct Block {
        bool in_use = false;
        bool started = false;  ///< in by_end_ (else in pending_)
        Time start = 0;
        Time armed_at = 0;     ///< its live completion event's time, while it is in armed_
        double slots = 0;      ///< issue slots per warp (until it starts)
        double rate = 0;       ///< issue slots per unit of V
        double length = 0;     ///< slots / rate (until it starts)
        double v_end = 0;      ///< virtual time its work is done (once started)
        double bound = 0;      ///< start + length: no earlier end is possible (until it starts)
    };

    [[nodiscard]] double clock_at(Time t) const;
    [[nodiscard]] Time end_at(double v_end, Time now) const;
    [[nodiscard]] Time end_of(std::uint32_t id, Time now) const;
    [[nodiscard]] std::uint32_t id_of(int sm, int slot) const;
    static bool set_leaf(std::vector<double>& tree, std::size_t leaf, double value);
    void arm(std::uint32_t id, Time end, CompletionSink& sink);

    std::size_t slots_per_sm_;
    double bandwidth_;
    double l2_bandwidth_;
    std::vector<Block> blocks_;
    GroupedMinHeap by_end_;              ///< started blocks by (v_end, id), a minimum per SM
    IndexedHeap<Time> pending_;          ///< not yet started, by (start, id)
    PendingGroups pending_groups_;       ///< the same, grouped by equal (start, length) (PendingGroups)
    IndexedHeap<Time> armed_;            ///< blocks with a live event, by (time, id)
    std::vector<double> demand_;         ///< segment tree over SMs; [1] is the total
    std::vector<double> l2_demand_;      ///< the same for the L2 demand
    std::size_t leaves_ = 1;
    std::vector<IndexedHeap<Time>::Entry> scratch_;
    bool dirty_ = false;  ///< something that moves ends changed since the last reschedule
    double phi_ = 1.0;
    Time t0_ = 0;
    double v0_ = 0;
    static constexpr double kNoLength = std::numeric_limits<double>::infinity();
    /// At most the least length of a pending block: the least length given to one since pending_ was
    /// last empty (a lower bound prunes a little less than the least itself would, and never prunes
    /// the earliest end's group).
    double least_pending_length_ = kNoLength;
    bool prune_by_length_ = true;
};

}  // namespace gpusched::sim
