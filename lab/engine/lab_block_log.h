// BlockLog: an observer that keeps the first blocks of a run and each launch's occupancy, for the lab's Gantt chart and limits.
#pragma once

#include <cstdint>
#include <vector>

#include "gpusched/hw/occupancy.h"
#include "gpusched/sim/observer.h"

namespace gpusched::lab {

/// Every block up to a cap (a page draws a few thousand bars, not millions), the launches'
/// occupancy and the GPU's per-SM warp limit. Asks for every block, so no launch is memoised.
class BlockLog : public sim::SimObserver {
public:
    explicit BlockLog(std::size_t max_blocks) : max_blocks_(max_blocks) {}
    void on_begin(const sim::RunInfo& info) override;
    void on_block_completed(const sim::BlockRecord& block) override;

    [[nodiscard]] const std::vector<sim::BlockRecord>& blocks() const { return blocks_; }
    [[nodiscard]] std::uint64_t blocks_seen() const { return seen_; }
    [[nodiscard]] const std::vector<hw::OccupancyResult>& occupancy() const { return occupancy_; }
    [[nodiscard]] int max_warps_per_sm() const { return max_warps_per_sm_; }

private:
    std::size_t max_blocks_;
    std::uint64_t seen_ = 0;
    int max_warps_per_sm_ = 0;
    std::vector<sim::BlockRecord> blocks_;
    std::vector<hw::OccupancyResult> occupancy_;
};

}  // namespace gpusched::lab
