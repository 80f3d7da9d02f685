// The validation sections' block recorder: sim::BlockRecorder, its blocks as MeasuredBlocks, and span_of, for comparing with measured timelines.
#pragma once

#include <algorithm>
#include <utility>
#include <vector>

#include "gpusched/sim/output/block_recorder.h"
#include "gpusched/validation/measured_timeline.h"

namespace gpusched::validation {

using sim::BlockRecorder;

/// The blocks `recorder` kept, in completion order, as a measured timeline holds them.
inline std::vector<MeasuredBlock> measured_blocks(const BlockRecorder& recorder) {
    std::vector<MeasuredBlock> out;
    out.reserve(recorder.blocks().size());
    for (const auto& b : recorder.blocks()) out.push_back({b.launch, b.block, b.sm, b.start, b.end});
    return out;
}

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
