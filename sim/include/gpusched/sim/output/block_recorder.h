// BlockRecorder: a standard observer that keeps the run's completed blocks (all, or the first N), for charts and comparisons.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "gpusched/sim/observer.h"

namespace gpusched::sim {

/// Keeps each completed block's record in completion order, up to `max_blocks` (a chart draws a
/// few thousand bars, not millions), and counts every block it saw. It asks for every block, so
/// no launch of a run it observes is memoised.
class BlockRecorder final : public SimObserver {
public:
    static constexpr std::size_t kEveryBlock = std::numeric_limits<std::size_t>::max();

    explicit BlockRecorder(std::size_t max_blocks = kEveryBlock) : max_blocks_(max_blocks) {}
    void on_block_completed(const BlockRecord& block) override;

    /// The kept blocks, in completion order (the first min(max_blocks, blocks_seen()) to complete).
    [[nodiscard]] const std::vector<BlockRecord>& blocks() const { return blocks_; }
    /// The kept blocks, handed over (the recorder keeps none afterwards).
    [[nodiscard]] std::vector<BlockRecord> take_blocks() { return std::move(blocks_); }
    /// Every block that completed, kept or not.
    [[nodiscard]] std::uint64_t blocks_seen() const { return seen_; }

private:
    std::size_t max_blocks_;
    std::uint64_t seen_ = 0;
    std::vector<BlockRecord> blocks_;
};

}  // namespace gpusched::sim
