// ResidentTable: the engine's resident blocks, one entry per (SM, slot), laid out slot-major.
#pragma once

#include <cstdint>
#include <vector>

#include "gpusched/hw/gpu_spec.h"
#include "gpusched/support/time.h"

namespace gpusched::sim {

/// A resident block (the hot loop touches one per event).
struct Resident {
    static constexpr std::uint32_t kFree = 0xffffffffU;
    std::uint64_t block = 0;
    Time dispatch = 0;
    Time start = 0;
    Time end = 0;                  ///< the end currently scheduled; completion events for other times are stale
    std::uint32_t launch = kFree;  ///< kFree: the slot holds no block
};

/// One entry per resident-block slot of every SM (SmPool's slot ids). Its index is the
/// payload of the slot's completion and release events:
///
///     index(sm, slot) = slot << sm_bits | sm,   sm_bits = ceil(log2(sm_count))
///
/// Slot-major: a slot's entries for all SMs are contiguous, so the few slots in use at low
/// occupancy share cache lines (an SM-major layout with a power-of-two stride put them in a
/// few cache sets). Life of an entry:
///
///     free (launch == kFree) --a block is placed in the slot--> resident --its end--> free
///
/// While resident, `end` is the end currently scheduled: a completion event at another time
/// is stale (an execution model revised the end).
///
/// Memory follows what is used: the entries of a slot for every SM (a row) exist once a
/// block has been placed in that slot on some SM (ensure_slot), besides the rows that fit
/// kInitialEntries, allocated at once (all of them on GPUs of up to a few hundred SMs). So
/// a GPU of 10^5 SMs running one block holds one row, not SMs x slots entries.
class ResidentTable final {
public:
    /// The index maths alone, as a value a loop can keep in registers while it writes to
    /// memory that could alias the table.
    struct Layout {
        int sm_bits;
        std::size_t sm_mask;
        [[nodiscard]] int sm_of(std::size_t at) const { return static_cast<int>(at & sm_mask); }
        [[nodiscard]] int slot_of(std::size_t at) const { return static_cast<int>(at >> sm_bits); }
    };

    /// Entries allocated at construction (a power of two; whole rows, at least one).
    static constexpr std::size_t kInitialEntries = std::size_t{1} << 16;

    /// slots_per_sm rows: SmPool::slots_per_sm(gpu).
    explicit ResidentTable(const hw::GpuSpec& gpu);

    [[nodiscard]] Layout layout() const { return {sm_bits_, sm_mask_}; }

    [[nodiscard]] std::size_t index(int sm, int slot) const {
        return (static_cast<std::size_t>(slot) << sm_bits_) | static_cast<std::size_t>(sm);
    }
    [[nodiscard]] int sm_of(std::size_t at) const { return static_cast<int>(at & sm_mask_); }
    [[nodiscard]] int slot_of(std::size_t at) const { return static_cast<int>(at >> sm_bits_); }
    /// Makes the entries of `slot` (every SM's) exist; call before touching index(sm, slot).
    /// Entries of rows allocated earlier keep their place (the table only grows).
    void ensure_slot(int slot) {
        if (static_cast<std::size_t>(slot) >= rows_) [[unlikely]]
            grow_to(slot);
    }
    /// The entry at `at`, whose slot has been ensured (or allocated at construction).
    [[nodiscard]] Resident& operator[](std::size_t at) { return entries_[at]; }
    [[nodiscard]] const Resident& operator[](std::size_t at) const { return entries_[at]; }
    /// Indices (slots_per_sm << sm_bits): every index is below it.
    [[nodiscard]] std::size_t size() const { return slots_ << sm_bits_; }
    /// Entries allocated now (whole rows).
    [[nodiscard]] std::size_t allocated() const { return entries_.size(); }

private:
    void grow_to(int slot);

    int sm_bits_;                     ///< SM count rounded up to a power of two, as a shift
    std::size_t sm_mask_;             ///< (1 << sm_bits_) - 1
    std::size_t slots_;               ///< rows the table may have
    std::size_t rows_;                ///< rows allocated
    std::vector<Resident> entries_;   ///< [index(sm, slot)] for slots below rows_
};

}  // namespace gpusched::sim
