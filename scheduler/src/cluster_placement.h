// ClusterPlacement: the dispatcher of a thread-block cluster launch (all blocks of a cluster in one GPC).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "gpusched/hw/cluster_occupancy.h"
#include "gpusched/hw/cluster_spec.h"
#include "gpusched/sim/dispatch_policy.h"
#include "gpusched/workloads/kernel_launch.h"

namespace gpusched::scheduler {

/// Places a cluster launch's blocks cluster by cluster, as measured on the H100 and H200
/// (validation/data/h100/clusters/: the first wave of every timeline and all 60 launches of
/// gpc_map.csv, cluster for cluster; docs/scheduling.md "Thread-block clusters"):
///
///   - a cluster's blocks all go to the SMs of one group of clusters.groups (a GPC) allowed by
///     the launch's SM mask, on c different SMs (no measured cluster ever had two blocks on
///     one SM): those with the most room, ties in the group's list order; its blocks get
///     ranks in that list order;
///   - level: a group's level is the room of the c-th roomiest of its SMs (0: the cluster
///     does not fit there). A cluster goes to a group of the highest level: first the small
///     groups (hw::is_small_cluster_group), round-robin from the small cursor, then the GPC
///     groups, round-robin from the GPC cursor; the chosen group's cursor moves past it. So
///     the GPCs fill layer by layer (one block per SM, then two, ...), the round-robin
///     skipping a GPC whose layer is full, and each layer starts with the small groups;
///   - each launch's cursors start at clusters.start_group / start_small_group (indices in
///     clusters.groups; absent: the first group of each kind). The hardware starts each launch
///     where earlier launches left it, which the data does not show (docs/scheduling.md), so
///     a replay sets the measured start and a simulation takes the spec's;
///   - reserve with rollback: a cluster is planned on the rooms as they are and dispatched
///     only when all c blocks fit in one group; otherwise nothing is reserved and it waits;
///   - an SM holds at most clusters.cluster_blocks_per_sm blocks of the launch (when set).
///
/// State: clusters planned so far, the pending blocks of the planned cluster (handed out by
/// next() one by one), each SM's room as the protocol keeps it (set by sm_changed, lowered
/// by each own placement) and the launch's resident blocks per SM (unit_ended lowers them).
class ClusterPlacement final : public sim::KernelDispatcher {
public:
    ClusterPlacement(const sim::LaunchContext& context, const hw::ClusterSpec& spec, const hw::ClusterShape& shape);

    [[nodiscard]] std::optional<sim::Placement> next(const sim::SmView& sms) override;
    void sm_changed(int sm, const sim::SmView& sms) override { room_[static_cast<std::size_t>(sm)] = sms.room(sm); }
    void unit_ended(int sm) override { --resident_[static_cast<std::size_t>(sm)]; }
    [[nodiscard]] bool finished() const override { return next_cluster_ == clusters_ && pending_.empty(); }
    [[nodiscard]] bool counts_unit_ends() const override { return true; }

    /// Linear index (x + y*gx + z*gx*gy) of rank `rank` of cluster `cluster` of `grid` in `shape`;
    /// clusters are numbered like blocks, x fastest.
    static std::uint64_t block_of(const workloads::Dim3& grid, const hw::ClusterShape& shape, std::uint64_t cluster,
                                  int rank);

private:
    /// The groups of one kind (GPC or small) in the spec's order, allowed SMs only.
    struct RoundRobin {
        std::vector<int> spec_index;             ///< each group's index in clusters.groups
        std::vector<std::vector<int>> sms;       ///< each group's allowed SMs, in list order
        int cursor = 0;                          ///< the spec index of the group visited first
        /// The position of the first group at or after the cursor's spec index (cyclically).
        [[nodiscard]] std::size_t first() const;
    };

    /// Room for one more block of this launch on `sm`: the SM's room as last told (sm_changed)
    /// less this dispatcher's placements since, and under the per-SM cap.
    [[nodiscard]] int room(int sm) const;
    /// The cluster's SMs in `group` (list order) into `out`; returns the group's level.
    int plan_in(const std::vector<int>& group, std::vector<int>& out) const;
    bool plan_next();

    workloads::Dim3 grid_;
    hw::ClusterShape shape_;
    int cap_ = 0;                             ///< blocks of this launch per SM, 0 = no cap
    RoundRobin small_, gpcs_;
    std::uint64_t clusters_ = 0;
    std::uint64_t next_cluster_ = 0;
    std::deque<sim::Placement> pending_;
    std::vector<int> resident_;               ///< this launch's blocks on each SM
    std::vector<int> room_;                   ///< each SM's room (sim::KernelDispatcher protocol)
    mutable std::vector<int> taken_;          ///< scratch of plan_in: positions in the group
    std::vector<int> chosen_;                 ///< scratch of plan_next
};

/// The policy's own dispatcher of a launch, as if it had no clusters (made only when needed).
using OwnOrder = std::function<std::unique_ptr<sim::KernelDispatcher>()>;

/// The dispatcher of a cluster launch (context.launch->cluster set, on a GPU with clusters):
/// clusters of one block follow `own_order` when it places blocks (not warps), as a launch
/// without clusters does (the H100 put every block of the measured 1-block-cluster launches
/// where its dispatch walk does), under clusters.cluster_blocks_per_sm (CappedPolicyPlacement);
/// every other cluster launch ClusterPlacement.
std::unique_ptr<sim::KernelDispatcher> make_cluster_dispatcher(const sim::LaunchContext& context, const OwnOrder& own_order);

}  // namespace gpusched::scheduler
