// ClusterPlacement: cluster-by-cluster placement in GPC groups, reserve with rollback.
#include "gpusched/sim/engine/cluster_placement.h"

#include <algorithm>

namespace gpusched::sim {

ClusterPlacement::ClusterPlacement(const LaunchContext& context, const hw::ClusterSpec& spec,
                                   const hw::ClusterShape& shape)
    : grid_(context.launch->grid),
      shape_(shape),
      cap_(spec.max_blocks_per_sm),
      clusters_(context.launch->blocks() / static_cast<std::uint64_t>(shape.size())),
      resident_(static_cast<std::size_t>(context.gpu->sm_count), 0),
      room_(static_cast<std::size_t>(context.gpu->sm_count), 0) {
    std::vector<std::uint8_t> allowed(static_cast<std::size_t>(context.gpu->sm_count), 0);
    for (int sm : context.sms_in_order) allowed[static_cast<std::size_t>(sm)] = 1;
    std::vector<std::size_t> order(spec.groups.size());
    for (std::size_t g = 0; g < order.size(); ++g) order[g] = g;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return spec.groups[a].size() < spec.groups[b].size(); });
    for (std::size_t g : order) {
        std::vector<int> sms;
        for (int sm : spec.groups[g])
            if (sm >= 0 && sm < context.gpu->sm_count && allowed[static_cast<std::size_t>(sm)] != 0) sms.push_back(sm);
        if (!sms.empty()) groups_.push_back(std::move(sms));
    }
}

std::uint64_t ClusterPlacement::block_of(const workloads::Dim3& grid, const hw::ClusterShape& shape,
                                         std::uint64_t cluster, int rank) {
    const std::uint64_t cx = grid.x / static_cast<std::uint64_t>(shape.x);
    const std::uint64_t cy = grid.y / static_cast<std::uint64_t>(shape.y);
    const std::uint64_t x = (cluster % cx) * static_cast<std::uint64_t>(shape.x) + static_cast<std::uint64_t>(rank % shape.x);
    const std::uint64_t y = (cluster / cx % cy) * static_cast<std::uint64_t>(shape.y) +
                            static_cast<std::uint64_t>(rank / shape.x % shape.y);
    const std::uint64_t z = (cluster / cx / cy) * static_cast<std::uint64_t>(shape.z) +
                            static_cast<std::uint64_t>(rank / shape.x / shape.y);
    return x + grid.x * (y + std::uint64_t{grid.y} * z);
}

int ClusterPlacement::room(int sm) const {
    const int free = room_[static_cast<std::size_t>(sm)];
    return cap_ > 0 ? std::min(free, cap_ - resident_[static_cast<std::size_t>(sm)]) : free;
}

std::vector<int> ClusterPlacement::plan_in(std::size_t g) const {
    const std::vector<int>& group = groups_[g];
    const int size = shape_.size();
    std::vector<int> left(group.size());
    for (std::size_t i = 0; i < group.size(); ++i) left[i] = room(group[i]);
    std::vector<std::size_t> taken;
    for (int b = 0; b < size; ++b) {
        std::size_t best = group.size();
        for (std::size_t i = 0; i < group.size(); ++i)
            if (left[i] > 0 && (best == group.size() || left[i] > left[best])) best = i;
        if (best == group.size()) return {};  // rollback: the tentative rooms are dropped
        left[best] = 0;                        // one block of a cluster per SM
        taken.push_back(best);
    }
    std::sort(taken.begin(), taken.end());
    std::vector<int> out;
    for (std::size_t i : taken) out.push_back(group[i]);
    return out;
}

bool ClusterPlacement::plan_next() {
    if (next_cluster_ == clusters_ || groups_.empty()) return false;
    std::vector<int> chosen;
    if (shape_.size() == 1) {  // most room first over every group, ties in visiting order
        int best_room = 0;
        for (const auto& group : groups_)
            for (int sm : group)
                if (const int r = room(sm); r > best_room) {
                    best_room = r;
                    chosen.assign(1, sm);
                }
    } else {
        for (std::size_t step = 0; step < groups_.size() && chosen.empty(); ++step) {
            const std::size_t g = (cursor_ + step) % groups_.size();
            chosen = plan_in(g);
            if (!chosen.empty()) cursor_ = (g + 1) % groups_.size();
        }
    }
    if (chosen.empty()) return false;
    for (int rank = 0; rank < static_cast<int>(chosen.size()); ++rank)
        pending_.push_back({block_of(grid_, shape_, next_cluster_, rank), chosen[static_cast<std::size_t>(rank)]});
    ++next_cluster_;
    return true;
}

std::optional<Placement> ClusterPlacement::next(const SmView& sms) {
    (void)sms;  // the rooms come through sm_changed
    if (pending_.empty() && !plan_next()) return std::nullopt;
    Placement p = pending_.front();
    if (room(p.sm) < 1) return std::nullopt;  // taken meanwhile (a dispatch interval let another launch in)
    pending_.pop_front();
    ++resident_[static_cast<std::size_t>(p.sm)];
    --room_[static_cast<std::size_t>(p.sm)];
    return p;
}

}  // namespace gpusched::sim
