// ClusterPlacement: the dispatcher of a thread-block cluster launch (all blocks of a cluster in one GPC).
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "gpusched/hw/cluster_occupancy.h"
#include "gpusched/hw/cluster_spec.h"
#include "gpusched/sim/dispatch_policy.h"
#include "gpusched/workloads/kernel_launch.h"

namespace gpusched::sim {

/// Places a cluster launch's blocks cluster by cluster, as measured on the H100
/// (validation/data/h100/clusters/timeline_*.csv; docs/scheduling.md "Thread-block clusters"):
///
///   - a cluster's blocks all go to the SMs of one group of clusters.groups (a GPC) allowed by
///     the launch's SM mask; groups are visited smallest first, then in the spec's order (the
///     2-SM groups, then the GPCs);
///   - clusters of one block: the SM with the most room, ties in that visiting order (the
///     measured GPC-after-GPC fill);
///   - clusters of c >= 2 blocks: round-robin over the groups, starting after the group of the
///     previous cluster; in a group the cluster takes c different SMs (no measured cluster ever
///     had two blocks on one SM), those with the most room, ties in the group's list order, and
///     its blocks get ranks in that list order (a group of fewer than c SMs never fits);
///   - reserve with rollback: a cluster is planned on a copy of the rooms and dispatched only
///     when all c blocks fit in one group; otherwise nothing is reserved and it waits;
///   - an SM holds at most clusters.cluster_blocks_per_sm blocks of the launch (when set).
///
/// State: clusters planned so far, the pending blocks of the planned cluster (handed out by
/// next() one by one), the round-robin cursor, each SM's room as the protocol keeps it (set by
/// sm_changed, lowered by each own placement) and the launch's resident blocks per SM
/// (unit_ended lowers them).
class ClusterPlacement final : public KernelDispatcher {
public:
    ClusterPlacement(const LaunchContext& context, const hw::ClusterSpec& spec, const hw::ClusterShape& shape);

    [[nodiscard]] std::optional<Placement> next(const SmView& sms) override;
    void sm_changed(int sm, const SmView& sms) override { room_[static_cast<std::size_t>(sm)] = sms.room(sm); }
    void unit_ended(int sm) override { --resident_[static_cast<std::size_t>(sm)]; }
    [[nodiscard]] bool finished() const override { return next_cluster_ == clusters_ && pending_.empty(); }

    /// Linear index (x + y*gx + z*gx*gy) of rank `rank` of cluster `cluster` of `grid` in `shape`;
    /// clusters are numbered like blocks, x fastest.
    static std::uint64_t block_of(const workloads::Dim3& grid, const hw::ClusterShape& shape, std::uint64_t cluster,
                                  int rank);

private:
    /// Room for one more block of this launch on `sm`: the SM's room as last told (sm_changed)
    /// less this dispatcher's placements since, and under the per-SM cap.
    [[nodiscard]] int room(int sm) const;
    /// The SMs of the next cluster in group `g`, or empty when it does not fit there.
    [[nodiscard]] std::vector<int> plan_in(std::size_t g) const;
    bool plan_next();

    workloads::Dim3 grid_;
    hw::ClusterShape shape_;
    int cap_ = 0;                             ///< blocks of this launch per SM, 0 = no cap
    std::vector<std::vector<int>> groups_;    ///< allowed SMs of each group, visiting order
    std::uint64_t clusters_ = 0;
    std::uint64_t next_cluster_ = 0;
    std::size_t cursor_ = 0;                  ///< round-robin: the group after the last one used
    std::deque<Placement> pending_;
    std::vector<int> resident_;               ///< this launch's blocks on each SM
    std::vector<int> room_;                   ///< each SM's room (KernelDispatcher protocol)
};

}  // namespace gpusched::sim
