// BlockRecorder (a simulation observer that keeps each completed block as a MeasuredBlock) and span_of, for comparing with measured timelines.
#pragma once

#include <algorithm>
#include <utility>
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

/// First block start and last block end of `blocks` ({0, 0} when empty).
inline std::pair<Time, Time> span_of(const std::vector<MeasuredBlock>& blocks) {
    Time first = ~Time{0}, last = 0;
    for (const auto& b : blocks) {
        first = std::min(first, b.start);
        last = std::max(last, b.end);
    }
    return {blocks.empty() ? 0 : first, last};
}

}  // namespace gpusched::validation
