// CappedPolicyPlacement: a policy's own block order with at most N blocks of the launch per SM (1-block clusters).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "gpusched/sim/dispatch_policy.h"

namespace gpusched::scheduler {

/// Wraps the dispatcher `order` of a block-level policy: its placements unchanged, except that
/// an SM holding `cap` blocks of the launch has room 0 for it until one of them ends (cap 0:
/// no cap). The wrapped dispatcher sees rooms through sim::SmView::restricted_to(under_cap_): an
/// SM reaching the cap is reported to it at room 0 at once; one dropping below the cap is
/// reported with its real room at the engine's next sm_changed for it (a block of this launch
/// ended there, so the engine reports its room change).
class CappedPolicyPlacement final : public sim::KernelDispatcher {
public:
    CappedPolicyPlacement(std::unique_ptr<sim::KernelDispatcher> order, int cap, const sim::LaunchContext& context);

    [[nodiscard]] std::optional<sim::Placement> next(const sim::SmView& sms) override;
    void sm_changed(int sm, const sim::SmView& sms) override { order_->sm_changed(sm, sms.restricted_to(under_cap_)); }
    void sms_changed(std::span<const int> changed, const sim::SmView& sms) override {
        order_->sms_changed(changed, sms.restricted_to(under_cap_));
    }
    [[nodiscard]] std::optional<sim::Placement> refill(int sm) override;
    [[nodiscard]] bool finished() const override { return order_->finished(); }
    [[nodiscard]] bool counts_unit_ends() const override { return true; }
    void unit_ended(int sm) override;

private:
    /// Counts a placement on `sm`; true when it brought the SM to the cap.
    bool count(int sm);

    std::unique_ptr<sim::KernelDispatcher> order_;
    int cap_ = 0;
    std::vector<int> resident_;              ///< this launch's blocks on each SM
    std::vector<std::uint8_t> under_cap_;    ///< by SM id: allowed to the launch and below the cap
};

}  // namespace gpusched::scheduler
