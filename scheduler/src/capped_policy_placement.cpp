// CappedPolicyPlacement: the wrapped policy's placements, SMs at the per-SM cap hidden from it.
#include "capped_policy_placement.h"

namespace gpusched::scheduler {

CappedPolicyPlacement::CappedPolicyPlacement(std::unique_ptr<sim::KernelDispatcher> order, int cap,
                                             const sim::LaunchContext& context)
    : order_(std::move(order)),
      cap_(cap),
      resident_(static_cast<std::size_t>(context.gpu->sm_count), 0),
      under_cap_(static_cast<std::size_t>(context.gpu->sm_count), 0) {
    for (int sm : context.sms_in_order) under_cap_[static_cast<std::size_t>(sm)] = 1;
}

bool CappedPolicyPlacement::count(int sm) {
    const auto i = static_cast<std::size_t>(sm);
    if (++resident_[i] != cap_) return false;
    under_cap_[i] = 0;
    return true;
}

std::optional<sim::Placement> CappedPolicyPlacement::next(const sim::SmView& sms) {
    const sim::SmView capped = sms.restricted_to(under_cap_);
    const auto placement = order_->next(capped);
    if (placement && count(placement->sm)) order_->sm_changed(placement->sm, capped);  // now room 0 for it
    return placement;
}

std::optional<sim::Placement> CappedPolicyPlacement::refill(int sm) {
    if (under_cap_[static_cast<std::size_t>(sm)] == 0) return std::nullopt;  // the general path: room 0 here
    const auto placement = order_->refill(sm);
    if (placement) (void)count(placement->sm);  // the wrapped dispatcher's room there is 0 after a refill
    return placement;
}

void CappedPolicyPlacement::unit_ended(int sm) {
    const auto i = static_cast<std::size_t>(sm);
    if (resident_[i]-- == cap_) under_cap_[i] = 1;
}

}  // namespace gpusched::scheduler
