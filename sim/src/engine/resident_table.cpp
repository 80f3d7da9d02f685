// ResidentTable: sizing the slot-major table of resident blocks.
#include "gpusched/sim/engine/resident_table.h"

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
      entries_(static_cast<std::size_t>(gpu.max_blocks_per_sm) << sm_bits_) {}

}  // namespace gpusched::sim
