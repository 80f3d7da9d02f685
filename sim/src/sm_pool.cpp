// Per-SM resource accounting with reserve/rollback, following the occupancy rules.
#include "gpusched/sim/sm_pool.h"

#include <algorithm>
#include <bit>
#include <climits>
#include <stdexcept>

namespace gpusched::sim {

namespace {

// The per-sub-partition register loops, unrolled for the common count of 4 parts.
bool parts_equal(const int* free, int parts) {
    if (parts == 4) return free[1] == free[0] && free[2] == free[0] && free[3] == free[0];
    return std::all_of(free + 1, free + parts, [&](int v) { return v == free[0]; });
}

void add_to_parts(int* free, int parts, int delta) {
    if (parts == 4) {
        free[0] += delta;
        free[1] += delta;
        free[2] += delta;
        free[3] += delta;
        return;
    }
    for (int p = 0; p < parts; ++p) free[p] += delta;
}

}  // namespace

BlockFootprint BlockFootprint::of(const hw::GpuSpec& spec, const hw::OccupancyRequest& req,
                                  const hw::OccupancyResult& occ) {
    BlockFootprint f;
    f.threads = req.threads_per_block;
    f.warps = occ.warps_per_block;
    if (spec.register_granularity == hw::RegisterGranularity::warp)
        f.registers_per_warp = occ.registers_per_warp;
    else
        f.registers_per_block = occ.registers_per_block;
    f.shared_bytes = occ.shared_bytes_per_block;
    f.shared_split = occ.shared_bytes_per_sm;
    f.barriers = spec.barriers_per_sm ? req.barriers_per_block : 0;
    return f;
}

BlockFootprint BlockFootprint::single_warp() const {
    BlockFootprint w = *this;
    w.threads = std::min(threads, (threads + warps - 1) / warps);
    w.warps = 1;
    w.registers_per_block = (registers_per_block + warps - 1) / warps;
    w.shared_bytes = (shared_bytes + warps - 1) / warps;
    w.barriers = 0;
    return w;
}

int SmPool::slots_per_sm(const hw::GpuSpec& spec) {
    return std::max(1, std::min(spec.max_blocks_per_sm, spec.max_warps_per_sm));
}

SmPool::SmPool(const hw::GpuSpec& spec)
    : spec_(spec),
      sm_count_(spec.sm_count),
      slots_per_sm_(slots_per_sm(spec)),
      sub_partitions_(spec.register_sub_partitions),
      state_(static_cast<std::size_t>(spec.sm_count)),
      free_sub_partition_registers_(static_cast<std::size_t>(spec.sm_count) * spec.register_sub_partitions,
                                    spec.registers_per_sm / spec.register_sub_partitions),
      used_slots_(static_cast<std::size_t>(spec.sm_count) * static_cast<std::size_t>((slots_per_sm_ + 63) / 64), 0),
      slot_words_((slots_per_sm_ + 63) / 64),
      records_of_(static_cast<std::size_t>(spec.sm_count), kNoRecords),
      scratch_parts_(static_cast<std::size_t>(spec.register_sub_partitions), 0) {}

std::size_t SmPool::slot_base(int sm) {
    std::uint32_t& records = records_of_[idx(sm)];
    if (records == kNoRecords) {
        // Records are allocated SM by SM, in the order SMs first need them (SM ids stay below
        // 2^31 and slots below 2^16, so the record number fits 32 bits).
        records = static_cast<std::uint32_t>(slot_footprint_.size() / static_cast<std::size_t>(slots_per_sm_));
        const std::size_t slots = slot_footprint_.size() + static_cast<std::size_t>(slots_per_sm_);
        slot_footprint_.resize(slots, nullptr);
        slot_even_.resize(slots, 0);
        slot_warps_in_part_.resize(slots * static_cast<std::size_t>(sub_partitions_), 0);
    }
    return static_cast<std::size_t>(records) * static_cast<std::size_t>(slots_per_sm_);
}

int SmPool::register_room(const SmState& s, const int* free, const BlockFootprint& f) const {
    if (f.registers_per_block > 0) return (spec_.registers_per_sm - s.block_registers) / f.registers_per_block;
    if (f.registers_per_warp == 0) return INT_MAX;
    int warp_capacity = 0;
    for (int p = 0; p < sub_partitions_; ++p) warp_capacity += free[p] / f.registers_per_warp;
    return warp_capacity / f.warps;
}

int SmPool::general_room(const SmState& s, const int* free_parts, const BlockFootprint& f) const {
    int r = std::min((spec_.max_warps_per_sm - s.warps) / f.warps, spec_.max_blocks_per_sm - s.blocks);
    r = std::min(r, (spec_.max_threads_per_sm - s.threads) / f.threads);
    if (f.shared_bytes > 0)
        r = std::min<std::int64_t>(r, s.shared >= f.shared_split ? 0 : (f.shared_split - s.shared) / f.shared_bytes);
    if (f.barriers > 0 && spec_.barriers_per_sm) r = std::min(r, (*spec_.barriers_per_sm - s.barriers) / f.barriers);
    if (r <= 0) return 0;
    return std::min(r, register_room(s, free_parts, f));
}

void SmPool::prepare(BlockFootprint& f) const {
    const std::vector<int> all_free(static_cast<std::size_t>(sub_partitions_), spec_.registers_per_sm / sub_partitions_);
    f.blocks_on_empty_sm = general_room(SmState{}, all_free.data(), f);
    f.even_part_registers = f.registers_per_block == 0 && f.warps % sub_partitions_ == 0
                                ? f.warps / sub_partitions_ * f.registers_per_warp
                                : 0;
    f.sole_lazy = f.blocks_on_empty_sm > 0 &&
                  (f.registers_per_block > 0 || f.registers_per_warp == 0 || f.even_part_registers > 0);
}

SmPool::SmState SmPool::effective(const SmState& s) const {
    if (!s.lazy) return s;
    const BlockFootprint& f = *s.sole;
    SmState e = s;
    e.threads = s.blocks * f.threads;
    e.warps = s.blocks * f.warps;
    e.block_registers = s.blocks * f.registers_per_block;
    e.shared = s.blocks * f.shared_bytes;
    e.barriers = s.blocks * f.barriers;
    e.lazy = false;
    return e;
}

int SmPool::lazy_part_free(const SmState& s) const {
    const BlockFootprint& f = *s.sole;
    const int all = spec_.registers_per_sm / sub_partitions_;
    return f.registers_per_block == 0 && f.registers_per_warp > 0 ? all - s.blocks * f.even_part_registers : all;
}

int SmPool::lazy_room(const SmState& s, const BlockFootprint& f) const {
    std::fill(scratch_parts_.begin(), scratch_parts_.end(), lazy_part_free(s));
    return general_room(effective(s), scratch_parts_.data(), f);
}

void SmPool::materialise(int sm) {
    SmState& s = state_[idx(sm)];
    const BlockFootprint& f = *s.sole;
    const int part_free = lazy_part_free(s);
    s = effective(s);
    int* free = &free_sub_partition_registers_[idx(sm) * sub_partitions_];
    std::fill(free, free + sub_partitions_, part_free);
    const bool even = f.registers_per_block == 0 && f.registers_per_warp > 0;
    const std::size_t base = slot_base(sm);
    for (int w = 0; w < slot_words_; ++w) {
        for (std::uint64_t bits = used_slots_[idx(sm) * static_cast<std::size_t>(slot_words_) + static_cast<std::size_t>(w)];
             bits != 0; bits &= bits - 1) {
            const std::size_t at = base + static_cast<std::size_t>(w * 64 + std::countr_zero(bits));
            slot_footprint_[at] = &f;
            slot_even_[at] = even ? 1 : 0;
        }
    }
}

bool SmPool::take_registers(int sm, int slot, const BlockFootprint& f) {
    if (f.registers_per_block > 0) {
        SmState& s = state_[idx(sm)];
        if (s.block_registers + f.registers_per_block > spec_.registers_per_sm) return false;
        s.block_registers += f.registers_per_block;
        return true;
    }
    if (f.registers_per_warp == 0) return true;
    int* free = &free_sub_partition_registers_[idx(sm) * sub_partitions_];
    // Fast path, identical to the greedy loop below: with every part equally free and the
    // warps a multiple of the parts, most-free-first placement deals the warps out evenly.
    if (f.even_part_registers > 0 && parts_equal(free, sub_partitions_)) {
        if (free[0] < f.even_part_registers) return false;
        add_to_parts(free, sub_partitions_, -f.even_part_registers);
        slot_even_[slot_base(sm) + static_cast<std::size_t>(slot)] = 1;
        return true;
    }
    std::uint16_t* placed = &slot_warps_in_part_[(slot_base(sm) + static_cast<std::size_t>(slot)) * sub_partitions_];
    for (int w = 0; w < f.warps; ++w) {
        int best = 0;
        for (int p = 1; p < sub_partitions_; ++p)
            if (free[p] > free[best]) best = p;
        if (free[best] < f.registers_per_warp) {
            for (int p = 0; p < sub_partitions_; ++p) {  // roll back the warps placed so far
                free[p] += placed[p] * f.registers_per_warp;
                placed[p] = 0;
            }
            return false;
        }
        free[best] -= f.registers_per_warp;
        ++placed[best];
    }
    return true;
}

void SmPool::give_back_registers(int sm, int slot, const BlockFootprint& f) {
    if (f.registers_per_block > 0) {
        state_[idx(sm)].block_registers -= f.registers_per_block;
        return;
    }
    int* free = &free_sub_partition_registers_[idx(sm) * sub_partitions_];
    const std::size_t at = slot_base(sm) + static_cast<std::size_t>(slot);
    std::uint8_t& even = slot_even_[at];
    if (even != 0) {
        add_to_parts(free, sub_partitions_, f.even_part_registers);
        even = 0;
        return;
    }
    std::uint16_t* placed = &slot_warps_in_part_[at * sub_partitions_];
    for (int p = 0; p < sub_partitions_; ++p) {
        free[p] += placed[p] * f.registers_per_warp;
        placed[p] = 0;
    }
}

int SmPool::take_slot(int sm, const BlockFootprint& f) {
    const int slot = take_slot_bit(sm);
    if (slot >= 0) slot_footprint_[slot_base(sm) + static_cast<std::size_t>(slot)] = &f;
    return slot;
}

void SmPool::free_slot(int sm, int slot) {
    used_slots_[idx(sm) * static_cast<std::size_t>(slot_words_) + static_cast<std::size_t>(slot / 64)] &=
        ~(std::uint64_t{1} << (slot & 63));
    slot_footprint_[slot_base(sm) + static_cast<std::size_t>(slot)] = nullptr;
}

// reserve() took the lazy paths: here a lazy SM receives a block of another footprint.
int SmPool::reserve_general(int sm, const BlockFootprint& f) {
    SmState& s = state_[idx(sm)];
    if (s.lazy) materialise(sm);
    if (f.blocks_on_empty_sm > 0 && (s.blocks == 0 || (!s.mixed && s.sole == &f))) {
        if (s.blocks >= f.blocks_on_empty_sm) return -1;
    } else {
        // Counted resources first; each check leaves the state untouched when it fails.
        if (s.blocks + 1 > spec_.max_blocks_per_sm || s.warps + f.warps > spec_.max_warps_per_sm ||
            s.threads + f.threads > spec_.max_threads_per_sm)
            return -1;
        if (f.shared_bytes > 0 && s.shared + f.shared_bytes > f.shared_split) return -1;
        if (f.barriers > 0 && spec_.barriers_per_sm && s.barriers + f.barriers > *spec_.barriers_per_sm) return -1;
    }
    const int slot = take_slot(sm, f);
    if (slot < 0) return -1;
    if (!take_registers(sm, slot, f)) {  // rolled back inside; free the slot too
        free_slot(sm, slot);
        return -1;
    }
    if (s.blocks == 0) {
        s.sole = &f;
        s.mixed = false;
    } else if (s.sole != &f) {
        s.mixed = true;
    }
    ++s.blocks;
    s.warps += f.warps;
    s.threads += f.threads;
    s.shared += f.shared_bytes;
    s.barriers += f.barriers;
    return slot;
}

void SmPool::release_of_free_slot() { throw std::logic_error("SmPool::release of a free slot"); }

void SmPool::release_general(int sm, int slot) {
    SmState& s = state_[idx(sm)];
    const BlockFootprint* f = slot_footprint_[slot_base(sm) + static_cast<std::size_t>(slot)];
    if (f == nullptr) release_of_free_slot();
    give_back_registers(sm, slot, *f);
    --s.blocks;
    s.warps -= f->warps;
    s.threads -= f->threads;
    s.shared -= f->shared_bytes;
    s.barriers -= f->barriers;
    free_slot(sm, slot);
    if (s.blocks == 0) {
        s.sole = nullptr;
        s.mixed = false;
    }
}

bool SmPool::within_limits(int sm) const {
    const SmState s = effective(state_[idx(sm)]);
    if (s.blocks < 0 || s.blocks > spec_.max_blocks_per_sm || s.warps > spec_.max_warps_per_sm ||
        s.threads > spec_.max_threads_per_sm || s.block_registers > spec_.registers_per_sm ||
        s.shared > spec_.shared_memory_per_sm)
        return false;
    if (spec_.barriers_per_sm && s.barriers > *spec_.barriers_per_sm) return false;
    if (state_[idx(sm)].lazy) return lazy_part_free(state_[idx(sm)]) >= 0;
    for (int p = 0; p < sub_partitions_; ++p)
        if (free_sub_partition_registers_[idx(sm) * sub_partitions_ + p] < 0) return false;
    return true;
}

}  // namespace gpusched::sim
