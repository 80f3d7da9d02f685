// min: fluid warp-level lower bound; active warps spread evenly over SMs ignoring block boundaries (*Min*).
#include <algorithm>

#include "policies.h"
#include "rank_set.h"

namespace gpusched::scheduler {

namespace {

/// Every active warp is its own unit holding one warp's share of its block's resources and
/// running for its block's duration; units go, in block order, to the SM with the most room
/// for one more warp (ties by SM order). This removes the block-granularity constraint of
/// the hardware, giving the interval paper's optimistic *Min* distribution.
class MinFluidDispatcher final : public InlinePlacement<MinFluidDispatcher> {
public:
    explicit MinFluidDispatcher(const sim::LaunchContext& c)
        : sms_(c.sms_in_order),
          position_(positions_of(c.sms_in_order, c.gpu->sm_count)),
          ranking_(static_cast<int>(c.sms_in_order.size()), c.gpu->max_warps_per_sm),
          launch_(*c.launch),
          warps_per_block_(c.occupancy->warps_per_block),
          blocks_(c.launch->blocks()) {
        advance_to_block_with_warps();
    }

    std::optional<sim::Placement> place(const sim::SmView&) {
        if (finished()) return std::nullopt;
        const int pos = ranking_.take_best();
        if (pos < 0) return std::nullopt;
        const sim::Placement placement{block_, sms_[static_cast<std::size_t>(pos)]};
        if (--warps_left_ == 0) {
            ++block_;
            advance_to_block_with_warps();
        }
        return placement;
    }
    void sm_changed(int sm, const sim::SmView& sms) override {
        ranking_.set(position_[static_cast<std::size_t>(sm)], sms.room(sm));
    }
    [[nodiscard]] bool finished() const override { return block_ >= blocks_; }
    [[nodiscard]] bool warp_level() const override { return true; }

private:
    void advance_to_block_with_warps() {
        for (; block_ < blocks_; ++block_) {
            warps_left_ = std::clamp(launch_.work->active_warps(block_, warps_per_block_), 0, warps_per_block_);
            if (warps_left_ > 0) return;
        }
    }

    std::vector<int> sms_;
    std::vector<int> position_;
    RoomRanking ranking_;
    const workloads::KernelLaunch& launch_;
    int warps_per_block_;
    std::uint64_t blocks_;
    std::uint64_t block_ = 0;
    int warps_left_ = 0;
};

}  // namespace

std::unique_ptr<sim::DispatchPolicy> make_min_fluid() { return std::make_unique<PolicyOf<MinFluidDispatcher>>("min", true); }

}  // namespace gpusched::scheduler
