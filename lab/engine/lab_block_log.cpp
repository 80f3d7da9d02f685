// BlockLog: the first blocks of a run and each launch's occupancy.
#include "lab_block_log.h"

namespace gpusched::lab {

void BlockLog::on_begin(const sim::RunInfo& info) {
    occupancy_ = info.occupancy;
    max_warps_per_sm_ = info.gpu->max_warps_per_sm;
}

void BlockLog::on_block_completed(const sim::BlockRecord& block) {
    ++seen_;
    if (blocks_.size() < max_blocks_) blocks_.push_back(block);
}

}  // namespace gpusched::lab
