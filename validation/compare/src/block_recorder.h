// BlockRecorder: a simulation observer that keeps each completed block as a MeasuredBlock, to compare with a measured timeline.
#pragma once

#include <vector>

#include "gpusched/sim/observer.h"
#include "gpusched/validation/measured_timeline.h"

namespace gpusched::validation {

class BlockRecorder final : public sim::SimObserver {
public:
    std::vector<MeasuredBlock> blocks;  ///< in completion order
    void on_block_completed(const sim::BlockRecord& b) override {
        blocks.push_back({b.launch, b.block, b.sm, b.start, b.end});
    }
};

}  // namespace gpusched::validation
