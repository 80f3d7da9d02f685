// sorted: list scheduling by decreasing active warps, each block to the SM with the least accumulated warps.
#include <algorithm>
#include <queue>

#include "gpusched/support/key_error.h"
#include "policies.h"
#include "preassigned_dispatcher.h"

namespace gpusched::scheduler {

namespace {

/// The interval paper's *Sorted* assumption: the hardware knows every block's active warps
/// in advance. Blocks are taken in order of decreasing active warps (ties by index) and each
/// is assigned to the SM with the smallest accumulated warp count (ties by SM order). The
/// assignment is materialised, so it is limited to kMaxBlocks blocks.
class SortedDispatcher final : public PreassignedDispatcher {
public:
    static constexpr std::uint64_t kMaxBlocks = std::uint64_t{1} << 27;

    explicit SortedDispatcher(const sim::LaunchContext& c) : PreassignedDispatcher(c) {
        const std::uint64_t blocks = c.launch->blocks();
        if (blocks > kMaxBlocks)
            throw KeyError("policy", "sorted",
                           "the launch has " + std::to_string(blocks) +
                               " blocks; sorted materialises its order and takes at most " +
                               std::to_string(kMaxBlocks) + " (use buckets, static-rr or most-room)");
        const int warps = c.occupancy->warps_per_block;
        // Counting sort by active warps, descending; stable in block index.
        std::vector<std::vector<std::uint64_t>> by_warps(static_cast<std::size_t>(warps) + 1);
        for (std::uint64_t b = 0; b < blocks; ++b) {
            const int active = std::clamp(c.launch->work->active_warps(b, warps), 0, warps);
            by_warps[static_cast<std::size_t>(active)].push_back(b);
        }
        queues_.resize(static_cast<std::size_t>(positions()));
        using Load = std::pair<std::uint64_t, int>;  // (accumulated warps, position): smallest first
        std::priority_queue<Load, std::vector<Load>, std::greater<>> least;
        for (int p = 0; p < positions(); ++p) least.push({0, p});
        for (int active = warps; active >= 0; --active) {
            for (std::uint64_t b : by_warps[static_cast<std::size_t>(active)]) {
                auto [load, p] = least.top();
                least.pop();
                queues_[static_cast<std::size_t>(p)].push_back(b);
                least.push({load + static_cast<std::uint64_t>(active), p});
            }
        }
        set_total(blocks);
    }

protected:
    [[nodiscard]] std::uint64_t queue_length(int p) const override { return queues_[static_cast<std::size_t>(p)].size(); }
    [[nodiscard]] std::uint64_t block_at(int p, std::uint64_t j) const override {
        return queues_[static_cast<std::size_t>(p)][j];
    }

private:
    std::vector<std::vector<std::uint64_t>> queues_;
};

}  // namespace

std::unique_ptr<sim::DispatchPolicy> make_sorted() { return std::make_unique<PolicyOf<SortedDispatcher>>("sorted", false); }

}  // namespace gpusched::scheduler
