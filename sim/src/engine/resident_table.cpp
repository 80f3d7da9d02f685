// ResidentTable: sizing the slot-major table of resident blocks.
#include "gpusched/sim/engine/resident_table.h"

#include <algorithm>
#include <stdexcept>

#include "gpusched/sim/sm_pool.h"

namespace gpusched::sim {

namespace {

int bits_for(int count) {
    int bits = 0;
    while ((1 << bits) < count) ++bits;
    return bits;
}

}  // namespace

ResidentTable::ResidentTable(const hw::GpuSpec& gpu)
    : sm_bits_(bits_for(gpu.sm_count)),
      sm_mask_((std::size_t{1} << sm_bits_) - 1),
      slots_(static_cast<std::size_t>(SmPool::slots_per_sm(gpu))),
      rows_(std::min(slots_, std::max<std::size_t>(1, kInitialEntries >> sm_bits_))),
      entries_(rows_ << sm_bits_) {}

void ResidentTable::grow_to(int slot) {
    if (slot < 0 || static_cast<std::size_t>(slot) >= slots_) throw std::out_of_range("ResidentTable: no such slot");
    // Doubling the rows keeps growth amortised; never beyond the slots an SM can have.
    rows_ = std::min(slots_, std::max(static_cast<std::size_t>(slot) + 1, rows_ * 2));
    entries_.resize(rows_ << sm_bits_);
}

}  // namespace gpusched::sim
