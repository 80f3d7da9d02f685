// IssueQueue: warp-scheduler contention on one SM as closed queues per sub-partition, oldest block first.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpusched::sim {

class AgeStepMemo;

/// Throughput of a closed queueing network by exact mean-value analysis (MVA): `warps`
/// customers, each alternating a pure delay of mean `think` and one queueing server of mean
/// service time `service`. For k = 1..warps:
///
///     R(k) = service x (1 + Q(k-1)),   X(k) = k / (think + R(k)),   Q(k) = X(k) x R(k)
///
/// (Q(0) = 0). Returns X(warps) in services per unit of time. X(1) = 1 / (think + service),
/// the lone customer; X(k) rises smoothly to 1 / service as the server saturates. With
/// think = 0 the server is always busy: X(k) = 1 / service for every k >= 1.
/// Example: think = 2, service = 1: X(1) = 1/3, X(2) = 0.6, X(3) = 0.789..., X(8) = 0.998...
double mva_throughput(int warps, double think, double service);

/// One block's step of the age-ordered scheduler (IssueQueue, below): with the fraction `used` < 1 of the
/// server taken by older blocks, x = mva_throughput(warps, think, service / (1 - used)); returns x / warps
/// (the rate of each of its warps) and sets `used` to min(1, used + x x service).
double age_order_step(int warps, double think, double service, double& used);

/// The `queue` issue model of one SM (DESIGN.md 2.5; docs/scheduling.md): the SM has P
/// warp schedulers (sub-partitions), each issuing one warp-instruction per `service` time.
/// Every resident block takes its warps' hardware slots, the lowest free ones, and slot w
/// belongs to sub-partition w mod P, as on the H100 (validation/data/h100/series_warps/).
/// A warp alternates issuing (one service) and waiting `think` for its next instruction
/// (think = latency bound / issue slots - service, the part of a lone warp's time per
/// instruction that is not issue).
///
/// Each scheduler serves older blocks first (validation/data/h100/series_warps/: warps finish
/// in block order, and the warps of one block together). Per sub-partition, blocks are taken
/// oldest first; block b with k warps there sees the server left over by older blocks,
///
///     service_b = service / (1 - U),  X_b = MVA(k, think_b, service_b),  U += X_b x service
///
/// (the shadow-server approximation of priority queueing), and each of its warps there issues
/// X_b / k instructions per unit of time. A block progresses at the rate of its slowest
/// sub-partition (its warps finish together). Blocks with think = 0 saturate the server, so
/// younger blocks get rate 0 until they leave.
///
/// A scheduler holding at most `fair_warps` warps (execution.issue_fair_warps) serves them
/// without regard to age, as one closed queue: with n warps there and their mean think Z,
/// R = n / MVA(n, Z, service) - Z is the time one instruction spends at the scheduler, and a
/// warp of block b issues 1 / (think_b + R) (MVA itself when the thinks are equal). Measured on
/// the H100 (validation/data/h100/series_warps/knee/): two or three one-warp blocks on a
/// scheduler finish together (63.5 / 68.1-68.2 clock64 cycles per term each), four finish oldest
/// first (71.8, 74.6, 79.6, 88.3). 0 (the default): older blocks first at any count.
///
/// Sample (1 SM, 4 sub-partitions, service 1, think 2, four 1-warp blocks then one 4-warp
/// block): each 1-warp block issues 1/3 per unit (alone on its sub-partition), the 4-warp
/// block's warps (1 per sub-partition) see service 1 / (1 - 1/3) = 1.5 and issue
/// MVA(1, 2, 1.5) = 1 / 3.5 each.
class IssueQueue {
public:
    /// `sub_partitions` >= 1 schedulers, `warp_slots` >= 1 hardware warp slots, `block_slots`
    /// >= 1 resident blocks at most, `service` > 0, `fair_warps` >= 0. `incremental` off: every
    /// update() recomputes every sub-partition from its oldest block (the reference the incremental
    /// update is tested against, bit for bit: tests/sim/issue_queue_incremental_test.cpp).
    IssueQueue(int sub_partitions, int warp_slots, int block_slots, double service, int fair_warps = 0,
               bool incremental = true);

    /// Block `slot` (an SmPool slot id, < block_slots) joins as the youngest, with `warps` warps that
    /// wait `think` >= 0 between instructions. Warps beyond the free warp slots are counted
    /// on sub-partitions round-robin from the last one taken (never dropped).
    void add(int slot, int warps, double think);
    /// Block `slot` leaves and frees its warp slots.
    void remove(int slot);
    /// Issue rate (instructions per unit of time) of one warp of block `slot`, as computed by
    /// the last update(); 0 for a slot not resident.
    [[nodiscard]] double rate(int slot) const { return rate_[static_cast<std::size_t>(slot)]; }
    /// Recomputes the rates after add() and remove() calls; nothing to do otherwise. Under the
    /// age order a block's rate on a sub-partition depends only on the older blocks there, so
    /// only the sub-partitions a change touched are recomputed, each from the first block the
    /// change moved on (a block joining as the youngest: that block alone), starting from the
    /// utilisation the older blocks left at the last update; a sub-partition in (or leaving) the
    /// fair regime is recomputed whole. The arithmetic is the full recomputation's, operation for
    /// operation, so the rates are the same bits. Then each block's rate is its slowest
    /// sub-partition's, O(blocks x sub-partitions).
    void update();
    [[nodiscard]] bool empty() const { return order_.empty(); }
    /// Recall each block's age-order step from `memo` (shared by the SMs of one simulation; it must
    /// outlive the queue): the same bits, a lookup instead of the step's divisions. nullptr: compute.
    void recall_from(AgeStepMemo* memo) { memo_ = memo; }
    /// Warps of resident block `slot` counted on sub-partition `part`: its warp slots there, plus any
    /// counted round-robin beyond the warp slots.
    [[nodiscard]] int warps_on(int slot, int part) const {
        return warps_in_part_[static_cast<std::size_t>(slot) * static_cast<std::size_t>(parts_) + static_cast<std::size_t>(part)];
    }

private:
    static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
    int parts_;
    int warp_slots_;
    double service_;
    int fair_warps_;
    std::vector<std::uint64_t> used_;        ///< warp-slot bitmap
    std::vector<int> order_;                 ///< resident block slots, oldest first
    std::vector<int> warps_in_part_;         ///< [slot * parts + p]
    std::vector<std::uint64_t> slot_bits_;   ///< [slot * words + w]: the warp slots a block holds
    std::vector<std::uint64_t> part_masks_;  ///< per sub-partition: its bits in a word (empty unless parts divide 64)
    std::vector<double> think_;              ///< per block slot
    std::vector<double> rate_;               ///< per block slot
    std::vector<double> part_rate_;          ///< [slot * parts + p]: per-warp rate there (where it has warps)
    std::vector<double> used_before_;        ///< [slot * parts + p]: utilisation left by older blocks (age order)
    std::vector<int> part_warps_;            ///< per sub-partition: warps of all resident blocks
    std::vector<char> part_fair_;            ///< per sub-partition: computed as one fair queue at the last update
    std::vector<double> part_used_;          ///< per sub-partition: utilisation after every block (age order)
    std::vector<std::size_t> dirty_from_;    ///< per sub-partition: first position in order_ to recompute (npos: none)
    std::vector<double> dirty_used_;         ///< per sub-partition: utilisation before that position
    int words_;
    bool incremental_;
    bool changed_ = false;                   ///< add() or remove() since the last update()
    AgeStepMemo* memo_ = nullptr;                ///< recall_from()

    /// A change at position `pos` of order_ on sub-partition `p`, where the older blocks left `used`.
    void mark(int p, std::size_t pos, double used);
    void recompute_fair(int p);
    void recompute_by_age(int p, std::size_t from, double used);
};

}  // namespace gpusched::sim
