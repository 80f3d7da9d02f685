// round-robin: blocks in index order, each to the next SM in cyclic order that has room.
#include "policies.h"
#include "rank_set.h"

namespace gpusched::scheduler {

namespace {

class RoundRobinDispatcher final : public InlinePlacement<RoundRobinDispatcher> {
public:
    explicit RoundRobinDispatcher(const sim::LaunchContext& c)
        : sms_(c.sms_in_order),
          position_(positions_of(c.sms_in_order, c.gpu->sm_count)),
          has_room_(static_cast<int>(c.sms_in_order.size())),
          room_(c.sms_in_order.size(), 0),
          blocks_(c.launch->blocks()) {}

    std::optional<sim::Placement> place(const sim::SmView&) {
        if (finished()) return std::nullopt;
        const auto pos = has_room_.next_from(cursor_);
        if (!pos) return std::nullopt;
        cursor_ = (*pos + 1) % static_cast<int>(sms_.size());
        if (--room_[static_cast<std::size_t>(*pos)] == 0) has_room_.erase(*pos);
        return sim::Placement{next_block_++, sms_[static_cast<std::size_t>(*pos)]};
    }
    void sm_changed(int sm, const sim::SmView& sms) override {
        const int pos = position_[static_cast<std::size_t>(sm)];
        room_[static_cast<std::size_t>(pos)] = sms.room(sm);
        if (room_[static_cast<std::size_t>(pos)] > 0)
            has_room_.insert(pos);
        else
            has_room_.erase(pos);
    }
    [[nodiscard]] bool finished() const override { return next_block_ == blocks_; }

private:
    std::vector<int> sms_;
    std::vector<int> position_;
    RankSet has_room_;
    std::vector<int> room_;  ///< by position
    std::uint64_t blocks_;
    std::uint64_t next_block_ = 0;
    int cursor_ = 0;
};

}  // namespace

std::unique_ptr<sim::DispatchPolicy> make_round_robin() { return std::make_unique<PolicyOf<RoundRobinDispatcher>>("round-robin", true); }

}  // namespace gpusched::scheduler
