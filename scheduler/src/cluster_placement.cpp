// ClusterPlacement: cluster-by-cluster placement in GPC groups, by level and round-robin, reserve with rollback.
#include "cluster_placement.h"

#include <algorithm>

#include "capped_policy_placement.h"

namespace gpusched::scheduler {

std::size_t ClusterPlacement::RoundRobin::first() const {
    for (std::size_t i = 0; i < spec_index.size(); ++i)
        if (spec_index[i] >= cursor) return i;
    return 0;
}

ClusterPlacement::ClusterPlacement(const sim::LaunchContext& context, const hw::ClusterSpec& spec,
                                   const hw::ClusterShape& shape)
    : grid_(context.launch->grid),
      shape_(shape),
      cap_(spec.max_blocks_per_sm),
      clusters_(context.launch->blocks() / static_cast<std::uint64_t>(shape.size())),
      resident_(static_cast<std::size_t>(context.gpu->sm_count), 0),
      room_(static_cast<std::size_t>(context.gpu->sm_count), 0) {
    small_.cursor = spec.start_small_group.value_or(0);  // 0: the first group of its kind
    gpcs_.cursor = spec.start_group.value_or(0);
    std::vector<std::uint8_t> allowed(static_cast<std::size_t>(context.gpu->sm_count), 0);
    for (int sm : context.sms_in_order) allowed[static_cast<std::size_t>(sm)] = 1;
    for (std::size_t g = 0; g < spec.groups.size(); ++g) {
        std::vector<int> sms;
        for (int sm : spec.groups[g])
            if (sm >= 0 && sm < context.gpu->sm_count && allowed[static_cast<std::size_t>(sm)] != 0) sms.push_back(sm);
        if (sms.empty()) continue;
        RoundRobin& kind = hw::is_small_cluster_group(spec, g) ? small_ : gpcs_;
        kind.spec_index.push_back(static_cast<int>(g));
        kind.sms.push_back(std::move(sms));
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

int ClusterPlacement::plan_in(const std::vector<int>& group, std::vector<int>& out) const {
    const int size = shape_.size();
    out.clear();
    if (group.size() < static_cast<std::size_t>(size)) return 0;
    // The c SMs with the most room, ties in list order: a stable order by decreasing room.
    taken_.resize(group.size());
    for (std::size_t i = 0; i < group.size(); ++i) taken_[i] = static_cast<int>(i);
    std::stable_sort(taken_.begin(), taken_.end(), [&](int a, int b) {
        return room(group[static_cast<std::size_t>(a)]) > room(group[static_cast<std::size_t>(b)]);
    });
    const int level = room(group[static_cast<std::size_t>(taken_[static_cast<std::size_t>(size - 1)])]);
    if (level < 1) return 0;
    taken_.resize(static_cast<std::size_t>(size));
    std::sort(taken_.begin(), taken_.end());
    for (int i : taken_) out.push_back(group[static_cast<std::size_t>(i)]);
    return level;
}

bool ClusterPlacement::plan_next() {
    if (next_cluster_ == clusters_) return false;
    // The highest level over every group, then the first group of that level: small groups
    // from their cursor, then GPC groups from theirs.
    int best = 0;
    for (const RoundRobin* kind : {&small_, &gpcs_})
        for (const auto& group : kind->sms) best = std::max(best, plan_in(group, chosen_));
    if (best < 1) return false;
    for (RoundRobin* kind : {&small_, &gpcs_}) {
        const std::size_t n = kind->sms.size();
        const std::size_t from = kind->first();
        for (std::size_t step = 0; step < n; ++step) {
            const std::size_t g = (from + step) % n;
            if (plan_in(kind->sms[g], chosen_) != best) continue;
            kind->cursor = kind->spec_index[(g + 1) % n];
            for (int rank = 0; rank < static_cast<int>(chosen_.size()); ++rank)
                pending_.push_back({block_of(grid_, shape_, next_cluster_, rank), chosen_[static_cast<std::size_t>(rank)]});
            ++next_cluster_;
            return true;
        }
    }
    return false;
}

std::optional<sim::Placement> ClusterPlacement::next(const sim::SmView& sms) {
    (void)sms;  // the rooms come through sm_changed
    if (pending_.empty() && !plan_next()) return std::nullopt;
    sim::Placement p = pending_.front();
    if (room(p.sm) < 1) return std::nullopt;  // taken meanwhile (a dispatch interval let another launch in)
    pending_.pop_front();
    ++resident_[static_cast<std::size_t>(p.sm)];
    --room_[static_cast<std::size_t>(p.sm)];
    return p;
}

std::unique_ptr<sim::KernelDispatcher> make_cluster_dispatcher(const sim::LaunchContext& context, const OwnOrder& own_order) {
    const hw::ClusterSpec& spec = *context.gpu->clusters;
    const hw::ClusterShape& shape = *context.launch->cluster;
    if (shape.size() == 1) {
        std::unique_ptr<sim::KernelDispatcher> order = own_order();
        if (!order->warp_level())
            return std::make_unique<CappedPolicyPlacement>(std::move(order), spec.max_blocks_per_sm, context);
    }
    return std::make_unique<ClusterPlacement>(context, spec, shape);
}

}  // namespace gpusched::scheduler
