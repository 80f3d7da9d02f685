// PreassignedDispatcher: base for policies that fix each block's SM up front (static-rr, buckets, sorted).
#pragma once

#include <cstdint>
#include <vector>

#include "gpusched/sim/dispatch_policy.h"
#include "rank_set.h"

namespace gpusched::scheduler {

/// Each allowed SM (by position in the launch's SM order) owns a FIFO of blocks. An SM
/// takes the next block of its own FIFO whenever it has room; it never takes another SM's
/// blocks, so these policies are not work-conserving. Subclasses describe the FIFOs lazily.
class PreassignedDispatcher : public sim::KernelDispatcher {
public:
    explicit PreassignedDispatcher(const sim::LaunchContext& c);

    std::optional<sim::Placement> next(const sim::SmView& sms) override;
    void sm_changed(int sm, const sim::SmView& sms) override;
    [[nodiscard]] bool finished() const override { return dispatched_ == total_; }

protected:
    /// Must be called by the subclass constructor once its FIFOs are known.
    void set_total(std::uint64_t total) { total_ = total; }
    [[nodiscard]] int positions() const { return static_cast<int>(sms_.size()); }
    [[nodiscard]] virtual std::uint64_t queue_length(int position) const = 0;
    [[nodiscard]] virtual std::uint64_t block_at(int position, std::uint64_t index) const = 0;

private:
    std::vector<int> sms_;
    std::vector<int> position_;
    std::vector<std::uint64_t> taken_;
    std::vector<int> room_;  ///< by position
    RankSet ready_;
    std::uint64_t total_ = 0;
    std::uint64_t dispatched_ = 0;
};

}  // namespace gpusched::scheduler
