// Per-SM FIFO dispatch for policies with a fixed block-to-SM assignment.
#include "preassigned_dispatcher.h"

namespace gpusched::scheduler {

PreassignedDispatcher::PreassignedDispatcher(const sim::LaunchContext& c)
    : sms_(c.sms_in_order),
      position_(positions_of(c.sms_in_order, c.gpu->sm_count)),
      taken_(c.sms_in_order.size(), 0),
      room_(c.sms_in_order.size(), 0),
      ready_(static_cast<int>(c.sms_in_order.size())) {}

std::optional<sim::Placement> PreassignedDispatcher::next(const sim::SmView&) {
    const auto pos = ready_.first();
    if (!pos) return std::nullopt;
    const auto p = static_cast<std::size_t>(*pos);
    const std::uint64_t block = block_at(*pos, taken_[p]++);
    ++dispatched_;
    if (taken_[p] == queue_length(*pos) || --room_[p] == 0) ready_.erase(*pos);
    return sim::Placement{block, sms_[p]};
}

void PreassignedDispatcher::sm_changed(int sm, const sim::SmView& sms) {
    const int pos = position_[static_cast<std::size_t>(sm)];
    room_[static_cast<std::size_t>(pos)] = sms.room(sm);
    if (taken_[static_cast<std::size_t>(pos)] < queue_length(pos) && room_[static_cast<std::size_t>(pos)] > 0)
        ready_.insert(pos);
    else
        ready_.erase(pos);
}

}  // namespace gpusched::scheduler
