// BlockRecorder: the run's completed blocks, up to a cap.
#include "gpusched/sim/output/block_recorder.h"

namespace gpusched::sim {

void BlockRecorder::on_block_completed(const BlockRecord& block) {
    ++seen_;
    if (blocks_.size() < max_blocks_) blocks_.push_back(block);
}

}  // namespace gpusched::sim
