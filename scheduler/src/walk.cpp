// walk: blocks in index order along the GPU's measured distributor walk (topology.dispatch_walk).
#include <algorithm>

#include "gpusched/support/key_error.h"
#include "policies.h"

namespace gpusched::scheduler {

namespace {

/// State machine (one step per SM visited; docs/scheduling.md "The dispatch walk"):
///
///     lead group (from lead_start) --> row start_row --> row +1 --> ...   (rows cyclic)
///     after each row: rows_done += 1; at lead_first_gap, then every lead_gap rows,
///     the lead is due; a due lead is visited after the current row if one of its SMs has
///     room, and stays due until a visit places a block there.
///
/// A visited SM takes the next block if it has room and, during the initial fill, fewer
/// than `limit` blocks of this launch, where limit starts at max(1, blocks / SMs) and
/// grows by one at a group boundary once no SM with room is below it. When such a round
/// (the first, or one after a rise) has fewer blocks left than SMs that could take one,
/// only a quota of them may: the first of those SMs in quota order (the lead's first SM of
/// each TPC, then its second SMs, then the groups' first SMs of each TPC, then their
/// second SMs; see hw::DispatchWalk). The initial fill ends the first time no SM has room;
/// from then on every SM with room is taken (a freed slot gets the next block when the
/// walk reaches it).
///
/// Between launches (RunState, shared by a run's launches through LaunchContext::run_state;
/// measured in validation/data/h100/walk_state):
/// the next launch starts at the row after the row of this launch's last block outside the
/// lead, and its lead at the lead_step-aligned index at or below that of the lead SM of its
/// last block in the lead. The first launch of a run starts at the spec's start_row/lead_start.
class WalkDispatcher final : public InlinePlacement<WalkDispatcher> {
public:
    /// The distributor's state that outlives a launch: where the next launch's walk starts.
    /// `known` is false until the run's first launch sets it.
    struct RunState final : sim::PolicyRunState {
        bool known = false;
        int row = 0;   ///< the row the next launch starts at
        int lead = 0;  ///< the lead_step-aligned index its lead starts at
    };

    explicit WalkDispatcher(const sim::LaunchContext& c)
        : room_(static_cast<std::size_t>(c.gpu->sm_count), 0),
          count_(static_cast<std::size_t>(c.gpu->sm_count), 0),
          blocks_(c.launch->blocks()) {
        if (!c.gpu->dispatch_walk)
            throw KeyError("policy", "walk",
                           "GPU '" + c.gpu->name +
                               "' has no topology.dispatch_walk (measured only for the h100 preset; "
                               "use most-room or add the walk to the GPU YAML)");
        const hw::DispatchWalk& walk = *c.gpu->dispatch_walk;
        state_ = static_cast<RunState*>(c.run_state);  // made by PolicyOf<WalkDispatcher>::begin_run
        if (!state_->known) {
            state_->known = true;
            state_->row = walk.start_row;
            state_->lead = walk.lead_start;
        }
        lead_order_ = walk.lead;
        lead_step_ = walk.lead_step;
        std::vector<std::uint8_t> allowed(static_cast<std::size_t>(c.gpu->sm_count), 0);
        for (int sm : c.sms_in_order) allowed[static_cast<std::size_t>(sm)] = 1;
        const auto keep_allowed = [&](const std::vector<int>& sms, std::size_t first) {
            std::vector<int> out;
            for (std::size_t i = 0; i < sms.size(); ++i) {
                const int sm = sms[(first + i) % sms.size()];
                if (allowed[static_cast<std::size_t>(sm)] != 0) out.push_back(sm);
            }
            return out;
        };
        groups_.push_back(keep_allowed(walk.lead, static_cast<std::size_t>(state_->lead)));
        for (const auto& row : walk.rows) groups_.push_back(keep_allowed(row, 0));
        const int per_tpc = std::max(1, c.gpu->sms_per_tpc.value_or(1));
        const auto add_quota = [&](const std::vector<int>& sms, int pass) {
            for (std::size_t i = static_cast<std::size_t>(pass); i < sms.size(); i += static_cast<std::size_t>(per_tpc))
                if (allowed[static_cast<std::size_t>(sms[i])] != 0) quota_order_.push_back(sms[i]);
        };
        if (!walk.groups.empty()) {
            for (int pass = 0; pass < per_tpc; ++pass) add_quota(walk.lead, pass);
            for (int pass = 0; pass < per_tpc; ++pass)
                for (const auto& group : walk.groups) add_quota(group, pass);
        }
        in_quota_.assign(static_cast<std::size_t>(c.gpu->sm_count), 0);
        group_of_.assign(static_cast<std::size_t>(c.gpu->sm_count), -1);
        for (std::size_t g = 0; g < groups_.size(); ++g)
            for (int sm : groups_[g]) group_of_[static_cast<std::size_t>(sm)] = static_cast<int>(g);
        row_ = state_->row;
        next_due_ = walk.lead_first_gap;
        lead_gap_ = walk.lead_gap;
        const auto sms = static_cast<std::uint64_t>(std::max<std::size_t>(1, c.sms_in_order.size()));
        limit_ = static_cast<int>(std::min<std::uint64_t>(std::max<std::uint64_t>(1, blocks_ / sms), 1u << 30));
    }

    std::optional<sim::Placement> place(const sim::SmView&) {
        if (finished()) return std::nullopt;
        if (with_room_ == 0) {
            initial_ = false;
            return std::nullopt;
        }
        if (round_pending_ || (partial_round_ && !quota_has_room())) start_round();
        // After the initial fill, one SM with room (a freed slot on a full GPU) is the usual
        // case: the walk then skips whole groups without it, which visits no SM with room.
        const int only = !initial_ && with_room_ == 1 ? room_id_sum_ : -1;
        for (;;) {
            const auto& group = groups_[static_cast<std::size_t>(group_)];
            if (only >= 0 && group_ != group_of_[static_cast<std::size_t>(only)]) index_ = group.size();
            if (index_ == group.size()) {
                end_group();
                continue;
            }
            const int sm = group[index_++];
            if (!takes(sm)) continue;
            placed_in_group_ = true;
            set_room(sm, room_[static_cast<std::size_t>(sm)] - 1, +1);
            move_state(sm);
            return sim::Placement{next_block_++, sm};
        }
    }
    void sm_changed(int sm, const sim::SmView& sms) override { set_room(sm, sms.room(sm), 0); }
    [[nodiscard]] bool finished() const override { return next_block_ == blocks_; }

private:
    [[nodiscard]] bool takes(int sm) const {
        const auto i = static_cast<std::size_t>(sm);
        return room_[i] > 0 && (!initial_ || (count_[i] < limit_ && (!partial_round_ || in_quota_[i] != 0)));
    }
    /// Whether a quota SM can still take a block (another launch may have filled them).
    [[nodiscard]] bool quota_has_room() const {
        return std::any_of(quota_order_.begin(), quota_order_.end(), [&](int sm) {
            const auto i = static_cast<std::size_t>(sm);
            return in_quota_[i] != 0 && room_[i] > 0 && count_[i] < limit_;
        });
    }
    /// A new round of the initial fill: with fewer blocks left than SMs that could take one,
    /// mark the quota (the first of them in quota order).
    void start_round() {
        round_pending_ = false;
        partial_round_ = false;
        if (quota_order_.empty() || blocks_ - next_block_ >= static_cast<std::uint64_t>(eligible_)) return;
        partial_round_ = true;
        std::fill(in_quota_.begin(), in_quota_.end(), 0);
        std::uint64_t left = blocks_ - next_block_;
        for (int sm : quota_order_) {
            if (left == 0) break;
            const auto i = static_cast<std::size_t>(sm);
            if (room_[i] > 0 && count_[i] < limit_) {
                in_quota_[i] = 1;
                --left;
            }
        }
    }
    /// Room of `sm` becomes `room`; `placed` (0 or 1) more blocks of this launch there.
    void set_room(int sm, int room, int placed) {
        const auto i = static_cast<std::size_t>(sm);
        const bool had = room_[i] > 0, eligible = had && count_[i] < limit_;
        room_[i] = room;
        count_[i] += placed;
        with_room_ += (room > 0 ? 1 : 0) - (had ? 1 : 0);
        room_id_sum_ += ((room > 0 ? 1 : 0) - (had ? 1 : 0)) * sm;
        eligible_ += (room > 0 && count_[i] < limit_ ? 1 : 0) - (eligible ? 1 : 0);
    }
    /// The distributor state after placing a block on `sm` (see the class comment).
    void move_state(int sm) {
        if (group_ != 0) {
            state_->row = group_ % (static_cast<int>(groups_.size()) - 1);  // the row after row group_ - 1
            return;
        }
        const auto at = std::find(lead_order_.begin(), lead_order_.end(), sm) - lead_order_.begin();
        state_->lead = static_cast<int>(at) / lead_step_ * lead_step_;
    }
    [[nodiscard]] bool lead_has_room() const {
        return std::any_of(groups_[0].begin(), groups_[0].end(), [&](int sm) { return room_[static_cast<std::size_t>(sm)] > 0; });
    }
    void end_group() {
        const auto rows = static_cast<int>(groups_.size()) - 1;
        if (group_ == 0) {
            if (placed_in_group_) lead_due_ = false;
        } else {
            row_ = (row_ + 1) % rows;
            if (++rows_done_ == next_due_) {
                lead_due_ = true;
                next_due_ += lead_gap_;
            }
        }
        raise_limit_if_stuck();
        group_ = group_ != 0 && lead_due_ && lead_has_room() ? 0 : row_ + 1;
        index_ = 0;
        placed_in_group_ = false;
    }
    /// During the initial fill: every SM with room has `limit` blocks, so allow one more.
    void raise_limit_if_stuck() {
        if (!initial_ || eligible_ > 0 || with_room_ == 0) return;
        ++limit_;
        eligible_ = 0;
        for (std::size_t i = 0; i < room_.size(); ++i) eligible_ += room_[i] > 0 && count_[i] < limit_ ? 1 : 0;
        start_round();
    }

    RunState* state_ = nullptr;
    std::vector<int> lead_order_;  ///< the spec's lead, unrotated
    int lead_step_ = 1;
    std::vector<std::vector<int>> groups_;  ///< [0] = lead (rotated), [1..] = rows; allowed SMs only
    std::vector<int> group_of_;             ///< by SM id: its index in groups_ (-1 outside the mask)
    std::vector<int> quota_order_;          ///< allowed SMs in quota order (empty: no quota rule)
    std::vector<std::uint8_t> in_quota_;    ///< by SM id, during a partial round
    bool round_pending_ = true;
    bool partial_round_ = false;
    std::vector<int> room_;                 ///< by SM id
    std::vector<int> count_;                ///< blocks of this launch placed, by SM id
    std::uint64_t blocks_;
    std::uint64_t next_block_ = 0;
    int with_room_ = 0;  ///< SMs with room > 0
    long long room_id_sum_ = 0;  ///< sum of their ids (the SM itself when with_room_ == 1)
    int eligible_ = 0;   ///< SMs with room > 0 and count < limit
    int limit_ = 1;
    bool initial_ = true;
    int group_ = 0;
    std::size_t index_ = 0;
    bool placed_in_group_ = false;
    int row_ = 0;
    int rows_done_ = 0;
    int next_due_ = 1;
    int lead_gap_ = 1;
    bool lead_due_ = false;
};

}  // namespace

std::unique_ptr<sim::DispatchPolicy> make_walk() { return std::make_unique<PolicyOf<WalkDispatcher>>("walk", true); }

}  // namespace gpusched::scheduler
