// SmPool: per-SM resource accounting for resident blocks (threads, warps, blocks, registers, shared memory, barriers).
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

#include "gpusched/hw/gpu_spec.h"
#include "gpusched/hw/occupancy.h"

namespace gpusched::sim {

/// What one resident block holds on its SM, derived once per launch from the occupancy rules.
struct BlockFootprint {
    int threads = 0;
    int warps = 0;
    int registers_per_warp = 0;      ///< warp-granular GPUs: registers of one warp after rounding
    int registers_per_block = 0;     ///< block-granular GPUs (cc 1.x): the block's rounded total
    std::int64_t shared_bytes = 0;   ///< per block, rounded, reservation included
    std::int64_t shared_split = 0;   ///< shared memory per SM under this kernel's carveout
    int barriers = 0;
    /// How many such blocks fit on an empty SM (set by SmPool::prepare; the fast path of room()).
    int blocks_on_empty_sm = 0;
    /// Warp-granular registers one block takes from each sub-partition when its warps split
    /// evenly over them (set by SmPool::prepare; 0 = they do not, or not prepared).
    int even_part_registers = 0;
    /// An SM holding only blocks of this footprint may count them alone (set by SmPool::prepare:
    /// it fits an empty SM and its registers come per block, not at all, or evenly per part).
    bool sole_lazy = false;

    /// The footprint of one block of a launch with request `req` and occupancy `occ`.
    static BlockFootprint of(const hw::GpuSpec& spec, const hw::OccupancyRequest& req,
                             const hw::OccupancyResult& occ);
    /// One warp's share of this footprint (for warp-level fluid dispatch): one warp, its
    /// registers, shared memory divided by the warp count (rounded up), no barriers.
    [[nodiscard]] BlockFootprint single_warp() const;
};

/// Resource state of every SM.
///
/// Memory follows what is used: an SM's per-slot records (footprint, register parts, even
/// flag) are allocated the first time the general rules need them there, and there are
/// slots_per_sm(spec) slots per SM, never more than a block of one warp each can fill.
///
/// Accounting follows the occupancy calculator so that, for blocks of one kernel, exactly
/// `blocks_per_sm` fit on an empty SM: warps, threads and blocks are counted against the
/// per-SM limits; registers of warp-granular GPUs live in `register_sub_partitions` equal
/// parts and each warp of a block takes its registers from one part (the part with the most
/// free registers); shared memory is counted against the split of the kernel being placed
/// (an SM running kernels with different carveouts uses the placing kernel's split);
/// barriers against `barriers_per_sm` where the spec has it.
///
/// `reserve` takes resources one kind at a time and rolls back what it took if a later
/// kind is short, so a failed reservation leaves the SM exactly as it was.
///
/// Fast paths (same results as the general rules): on an SM that is empty or holds only
/// blocks of the same prepared footprint, a block fits exactly when fewer than
/// blocks_on_empty_sm are resident, so the counted limits are not re-checked; a block
/// whose warps split evenly over equally free sub-partitions takes even_part_registers
/// from each, which is what the most-free-first rule does, and its slot records only that
/// (slot_even_) instead of a warp count per sub-partition.
///
/// Sole-footprint lazy accounting: an SM that went from empty to blocks of one `sole_lazy`
/// footprint only keeps its block count and slot bits, since then every counter is the
/// count times the per-block amount (registers included: each block took an even share
/// of equally free parts). The counters, register parts, slot_footprint_ and slot_even_
/// are written (materialised) when a block of another footprint arrives; queries compute
/// them on the fly.
///
///     empty --reserve(f), f.sole_lazy--> lazy(f) --reserve(f) / release--> lazy(f)
///     lazy(f) --release of the last block--> empty
///     lazy(f) --reserve(g), g != f--> materialised, then the general rules
class SmPool {
    struct SmState {
        int threads = 0;
        int warps = 0;
        int blocks = 0;
        int block_registers = 0;  ///< block-granular register use
        std::int64_t shared = 0;
        int barriers = 0;
        const BlockFootprint* sole = nullptr;  ///< the one footprint resident, if only one kind is
        bool mixed = false;                    ///< blocks of different footprints are resident
        bool lazy = false;  ///< only `blocks` and the slot bits are kept; the rest is blocks x *sole
    };

public:
    explicit SmPool(const hw::GpuSpec& spec);

    /// Resident-block slots one SM can need: min(max_blocks_per_sm, max_warps_per_sm), since
    /// every block (or warp-level unit) holds at least one warp.
    [[nodiscard]] static int slots_per_sm(const hw::GpuSpec& spec);

    /// Fills in f.blocks_on_empty_sm; call once per footprint before using it.
    void prepare(BlockFootprint& f) const;
    /// How many more blocks with footprint `f` fit on `sm` right now. O(1) when the SM is
    /// empty or holds only blocks of this same footprint object (then the answer is
    /// blocks_on_empty_sm minus the resident count, exactly); otherwise every limit is evaluated.
    [[nodiscard]] int room(int sm, const BlockFootprint& f) const {
        const SmState& s = state_[idx(sm)];
        if (s.blocks == 0) return f.blocks_on_empty_sm;
        if (!s.mixed && s.sole == &f) return f.blocks_on_empty_sm - s.blocks;
        if (s.lazy) return lazy_room(s, f);
        return general_room(s, &free_sub_partition_registers_[idx(sm) * sub_partitions_], f);
    }
    /// Reserves one block; returns its slot (0-based, the lowest free) or -1 if it does not fit.
    /// Inline: the lazy sole-footprint path (an SM that is empty or holds only blocks of `f`).
    [[gnu::always_inline]] int reserve(int sm, const BlockFootprint& f) {
        SmState& s = state_[idx(sm)];
        if (s.lazy ? s.sole != &f : (s.blocks != 0 || !f.sole_lazy)) return reserve_general(sm, f);
        if (s.blocks >= f.blocks_on_empty_sm) return -1;  // sole_lazy: an empty SM takes one
        const int slot = take_slot_bit(sm);
        if (slot >= 0 && s.blocks++ == 0) {
            s.sole = &f;
            s.mixed = false;
            s.lazy = true;
        }
        return slot;
    }
    /// Releases the block in `slot` of `sm`. Inline: the lazy path.
    [[gnu::always_inline]] void release(int sm, int slot) {
        SmState& s = state_[idx(sm)];
        if (!s.lazy) {
            release_general(sm, slot);
            return;
        }
        std::uint64_t& word = used_slots_[idx(sm) * static_cast<std::size_t>(slot_words_) + (static_cast<std::size_t>(slot) >> 6)];
        const std::uint64_t bit = std::uint64_t{1} << (slot & 63);
        if ((word & bit) == 0) [[unlikely]]
            release_of_free_slot();
        word &= ~bit;
        if (--s.blocks == 0) {
            s.sole = nullptr;
            s.lazy = false;
        }
    }

    [[nodiscard]] int sm_count() const { return sm_count_; }
    [[nodiscard]] int resident_blocks(int sm) const { return state_[idx(sm)].blocks; }
    [[nodiscard]] int resident_warps(int sm) const { return effective(state_[idx(sm)]).warps; }
    /// Per-slot records allocated so far (slots_per_sm per SM that needed the general rules).
    [[nodiscard]] std::size_t slot_records() const { return slot_footprint_.size(); }
    /// True when every counter of `sm` is within the spec's limits (for invariant tests).
    [[nodiscard]] bool within_limits(int sm) const;

private:
    [[nodiscard]] std::size_t idx(int sm) const { return static_cast<std::size_t>(sm); }
    /// Index of (sm, slot 0) in the per-slot records, allocating the SM's records on first use.
    std::size_t slot_base(int sm);
    /// Room by every limit, given an SM's counters and its free registers per sub-partition.
    [[nodiscard]] int register_room(const SmState& s, const int* free_parts, const BlockFootprint& f) const;
    [[nodiscard]] int general_room(const SmState& s, const int* free_parts, const BlockFootprint& f) const;
    /// The counters of `s` as they would be materialised (s itself unless lazy).
    [[nodiscard]] SmState effective(const SmState& s) const;
    /// Free registers of each part of a lazy SM (all parts alike).
    [[nodiscard]] int lazy_part_free(const SmState& s) const;
    [[nodiscard]] int lazy_room(const SmState& s, const BlockFootprint& f) const;
    /// Writes a lazy SM's counters, register parts and per-slot records.
    void materialise(int sm);
    bool take_registers(int sm, int slot, const BlockFootprint& f);
    void give_back_registers(int sm, int slot, const BlockFootprint& f);
    int take_slot(int sm, const BlockFootprint& f);
    /// The lowest free slot, marked used (-1 if none); records nothing else.
    [[gnu::always_inline]] int take_slot_bit(int sm) {
        std::uint64_t* words = &used_slots_[idx(sm) * static_cast<std::size_t>(slot_words_)];
        for (int w = 0; w < slot_words_; ++w) {
            if (~words[w] == 0) continue;
            const int slot = w * 64 + std::countr_one(words[w]);
            if (slot >= slots_per_sm_) return -1;
            words[w] |= std::uint64_t{1} << (slot & 63);
            return slot;
        }
        return -1;
    }
    int reserve_general(int sm, const BlockFootprint& f);
    void release_general(int sm, int slot);
    [[noreturn]] static void release_of_free_slot();
    void free_slot(int sm, int slot);

    const hw::GpuSpec& spec_;
    int sm_count_;
    int slots_per_sm_;
    int sub_partitions_;
    std::vector<SmState> state_;
    std::vector<int> free_sub_partition_registers_;     ///< [sm * sub_partitions + p]
    std::vector<std::uint64_t> used_slots_;             ///< bit per slot, [sm * slot_words + word]
    int slot_words_;
    static constexpr std::uint32_t kNoRecords = 0xffffffffU;
    std::vector<std::uint32_t> records_of_;             ///< per SM: its first record / slots, or kNoRecords
    std::vector<const BlockFootprint*> slot_footprint_;  ///< [base + slot], nullptr = free
    std::vector<std::uint16_t> slot_warps_in_part_;     ///< [(base + slot) * sub_partitions + p]
    std::vector<std::uint8_t> slot_even_;               ///< [base + slot]: registers taken evenly
    mutable std::vector<int> scratch_parts_;             ///< lazy_room's per-part free registers
};

}  // namespace gpusched::sim
