// LaunchTable: every launch's state, built and checked against the GPU once (shapes, occupancy, priorities, SMs).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <span>
#include <tuple>
#include <vector>

#include "gpusched/hw/gpu_spec.h"
#include "gpusched/sim/engine/launch_state.h"
#include "gpusched/sim/engine/stream_sm_map.h"
#include "gpusched/sim/occupancy_table.h"
#include "gpusched/sim/sm_pool.h"
#include "gpusched/workloads/application.h"

namespace gpusched::sim {

/// One LaunchState per launch of the application, in its order, made at construction; the
/// table never grows or shrinks after it (the Dispatcher keeps a span of the states).
///
/// Construction checks, in this order, and throws the first problem as an InputError:
///   - more launches than an event's payload can name (Event::kMaxPayload), or more
///     resident-block slots (`resident_slots`) than a completion event can name;
///   - the partitions (StreamSmMap);
///   - for each launch in order: its work model is present; its occupancy request fits the GPU
///     (the message names the launch); its work accepts the block's warps; its stream's
///     priority is one of the GPU's (streams.priority_range; `high` is the greatest); its
///     stream's SM mask names existing SMs; a cluster launch's clusters fit
///     (hw::compute_cluster_occupancy).
///
/// Sharing (memory per launch is a few words): launches with one occupancy request share a
/// LaunchShape (footprints prepared in the SmPool once; shapes never move, a deque) and one
/// OccupancyTable result; launches of one stream share its StreamSms. An unlisted stream has
/// priority 0 and every SM (or the application's partition).
///
/// Each launch's state then moves as launch_state.h says (waiting, active, done or repeated);
/// check_all_placed, after the run, reports a launch that never got there.
class LaunchTable final {
public:
    LaunchTable(const hw::GpuSpec& gpu, const workloads::Application& app, const SmPool& pool,
                std::size_t resident_slots);
    LaunchTable(const LaunchTable&) = delete;
    LaunchTable& operator=(const LaunchTable&) = delete;

    [[nodiscard]] std::size_t size() const { return launches_.size(); }
    [[nodiscard]] LaunchState& operator[](std::size_t index) { return launches_[index]; }
    [[nodiscard]] const LaunchState& operator[](std::size_t index) const { return launches_[index]; }
    [[nodiscard]] std::span<LaunchState> states() { return launches_; }
    [[nodiscard]] const OccupancyTable& occupancy() const { return occupancy_; }
    /// Per launch: how many SMs its stream may use (the size of its StreamSmMap set).
    [[nodiscard]] std::vector<int> sm_counts() const;
    /// Distinct launch shapes (occupancy requests) made.
    [[nodiscard]] std::size_t shape_count() const { return shapes_.size(); }
    /// Distinct SM sets of the launches' streams.
    [[nodiscard]] std::size_t sm_set_count() const { return sms_.size(); }

    /// After the run: InputError naming the first launch neither repeated nor done (never
    /// fully placed and completed: no SM allowed by its stream can hold one of its blocks).
    void check_all_placed() const;

private:
    /// The shape of `launch` (made, its occupancy computed, on the first launch that asks for it).
    const LaunchShape& shape_of(std::size_t index, const workloads::KernelLaunch& launch, const SmPool& pool);

    using ShapeKey = std::tuple<int, int, std::int64_t, std::int64_t, int, int, int>;

    const hw::GpuSpec& gpu_;  ///< checked against the application's size first
    StreamSmMap sms_;
    OccupancyTable occupancy_;
    std::vector<LaunchState> launches_;
    std::deque<LaunchShape> shapes_;  ///< never moves: SmPool keeps footprint addresses
    std::map<ShapeKey, const LaunchShape*> shape_index_;
};

}  // namespace gpusched::sim
