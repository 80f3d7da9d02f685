// most-room: blocks in index order, each to the SM that can take the most more blocks (ties by SM order).
#include <algorithm>

#include "policies.h"
#include "rank_set.h"

namespace gpusched::scheduler {

namespace {

class MostRoomDispatcher final : public sim::KernelDispatcher {
public:
    explicit MostRoomDispatcher(const sim::LaunchContext& c)
        : sms_(c.sms_in_order),
          position_(positions_of(c.sms_in_order, c.gpu->sm_count)),
          // A block's room on an SM never exceeds the slots an SM can need, so no room shares the top level.
          ranking_(static_cast<int>(c.sms_in_order.size()), sim::SmPool::slots_per_sm(*c.gpu)),
          blocks_(c.launch->blocks()) {}

    std::optional<sim::Placement> next(const sim::SmView&) override {
        if (finished()) return std::nullopt;
        const int pos = ranking_.take_best();
        if (pos < 0) return std::nullopt;
        return sim::Placement{next_block_++, sms_[static_cast<std::size_t>(pos)]};
    }
    /// What successive next() calls would return, without a finished() test per unit.
    std::size_t next_batch(const sim::SmView&, std::span<sim::Placement> out) override {
        const auto limit = static_cast<std::size_t>(std::min<std::uint64_t>(out.size(), blocks_ - next_block_));
        sim::Placement* placement = out.data();
        return ranking_.take_many(limit, [&](int pos) {
            *placement++ = sim::Placement{next_block_++, sms_[static_cast<std::size_t>(pos)]};
        });
    }
    /// Every other SM full and `sm` back to room 1: take_best() would pick `sm` and return
    /// it to 0, so the ranking is already as it would be after that placement.
    std::optional<sim::Placement> refill(int sm) override {
        const int pos = position_[static_cast<std::size_t>(sm)];
        if (finished() || !ranking_.known_empty() || ranking_.room(pos) != 0) return std::nullopt;
        return sim::Placement{next_block_++, sm};
    }
    /// Its choices are the ranking's, which holds only the rooms it was told.
    bool skip_units(std::uint64_t units) override {
        if (units >= blocks_ - next_block_) return false;
        next_block_ += units;
        return true;
    }
    void sm_changed(int sm, const sim::SmView& sms) override {
        ranking_.set(position_[static_cast<std::size_t>(sm)], sms.room(sm));
    }
    void sms_changed(std::span<const int> changed, const sim::SmView& sms) override {
        for (int sm : changed) ranking_.set(position_[static_cast<std::size_t>(sm)], sms.room(sm));
    }
    [[nodiscard]] bool finished() const override { return next_block_ == blocks_; }

private:
    std::vector<int> sms_;
    std::vector<int> position_;
    RoomRanking ranking_;
    std::uint64_t blocks_;
    std::uint64_t next_block_ = 0;
};

}  // namespace

std::unique_ptr<sim::DispatchPolicy> make_most_room() { return std::make_unique<PolicyOf<MostRoomDispatcher>>("most-room", true); }

}  // namespace gpusched::scheduler
