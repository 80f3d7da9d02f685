// LaunchTable: each launch's state from the GPU and the workload, checked once; the final check.
#include "gpusched/sim/engine/launch_table.h"

#include <map>
#include <string>

#include "gpusched/hw/cluster_occupancy.h"
#include "gpusched/sim/engine/completion_groups.h"
#include "gpusched/sim/event_queue.h"
#include "gpusched/support/input_error.h"

namespace gpusched::sim {

namespace {

std::string launch_label(std::size_t index, const workloads::KernelLaunch& launch) {
    return "launch " + std::to_string(index) + " (" + launch.name + ")";
}

/// `gpu`, once the application's launches and the GPU's resident slots fit what an event can
/// name (a completion event names a launch's operation, a resident slot or a completion group).
const hw::GpuSpec& nameable(const hw::GpuSpec& gpu, const workloads::Application& app, std::size_t resident_slots) {
    if (app.launches.size() > Event::kMaxPayload)
        throw InputError("the workload has more than " + std::to_string(Event::kMaxPayload) + " launches");
    if (resident_slots >= CompletionGroups::kFlag)
        throw InputError("the GPU " + gpu.name + " has " + std::to_string(gpu.sm_count) + " SMs of " +
                         std::to_string(SmPool::slots_per_sm(gpu)) +
                         " resident-block slots each (max_blocks_per_sm, at most max_warps_per_sm): more than the "
                         "engine can name (sm_count rounded up to a power of two, times the slots, must stay below " +
                         std::to_string(CompletionGroups::kFlag) + ")");
    return gpu;
}

/// A stream's priority in CUDA's numbers on a GPU with `range`: `high` is its greatest; an
/// integer outside the range is an InputError naming the stream's key and the allowed values.
int resolved_priority(const workloads::StreamConfig& stream, const hw::StreamPriorityRange& range, const std::string& gpu) {
    if (stream.priority.greatest) return range.greatest;
    if (range.contains(stream.priority.value)) return stream.priority.value;
    throw InputError("stream " + std::to_string(stream.id) + ": key 'priority': " + std::to_string(stream.priority.value) +
                     " is not a stream priority of GPU " + gpu + " (streams.priority_range: " + range.text() +
                     "); expected normal, high or an integer from " + std::to_string(range.least) + " down to " +
                     std::to_string(range.greatest));
}

}  // namespace

LaunchTable::LaunchTable(const hw::GpuSpec& gpu, const workloads::Application& app, const SmPool& pool,
                         std::size_t resident_slots)
    : gpu_(nameable(gpu, app, resident_slots)), sms_(gpu, app) {
    const hw::StreamPriorityRange priorities = gpu.stream_priorities();
    std::map<int, const workloads::StreamConfig*> listed_streams;  // the first listed of each id, as app.stream()
    for (const workloads::StreamConfig& stream : app.streams) listed_streams.emplace(stream.id, &stream);
    launches_.reserve(app.launches.size());
    occupancy_.reserve(app.launches.size());
    for (std::size_t i = 0; i < app.launches.size(); ++i) {
        const workloads::KernelLaunch& launch = app.launches[i];
        if (!launch.work) throw InputError(launch_label(i, launch) + " has no work model");
        LaunchState& state = launches_.emplace_back();
        state.launch = &launch;
        state.work = launch.work.get();
        state.shape = &shape_of(i, launch, pool);
        launch.work->check_block_warps(state.shape->block_footprint.warps);
        const auto listed = listed_streams.find(launch.stream);
        const bool unlisted = listed == listed_streams.end();
        state.priority = unlisted ? 0 : resolved_priority(*listed->second, priorities, gpu.name);
        state.sms = &sms_.sms_of(unlisted ? nullptr : listed->second);
        if (launch.cluster)
            (void)hw::compute_cluster_occupancy(gpu, occupancy_[i], *launch.cluster, launch.cluster_nonportable,
                                                launch_label(i, launch) + ": key 'cluster'");
    }
}

std::vector<int> LaunchTable::sm_counts() const {
    std::vector<int> counts;
    counts.reserve(launches_.size());
    for (const LaunchState& state : launches_) counts.push_back(static_cast<int>(state.sms->sms_in_order.size()));
    return counts;
}

const LaunchShape& LaunchTable::shape_of(std::size_t index, const workloads::KernelLaunch& launch, const SmPool& pool) {
    const hw::OccupancyRequest request = launch.occupancy_request();
    const ShapeKey key{request.threads_per_block,   request.registers_per_thread, request.static_shared_bytes,
                       request.dynamic_shared_bytes, request.barriers_per_block,  static_cast<int>(request.carveout.kind),
                       request.carveout.percent};
    if (const auto it = shape_index_.find(key); it != shape_index_.end()) {
        occupancy_.push_back_same_as(it->second->first_launch);
        return *it->second;
    }
    hw::OccupancyResult occ;
    try {
        occ = hw::compute_occupancy(gpu_, request);
    } catch (const InputError& e) {
        throw InputError(launch_label(index, launch) + ": " + e.what());
    }
    LaunchShape& shape = shapes_.emplace_back();
    shape.first_launch = index;
    shape.block_footprint = BlockFootprint::of(gpu_, request, occ);
    pool.prepare(shape.block_footprint);
    shape.warp_footprint = shape.block_footprint.single_warp();
    pool.prepare(shape.warp_footprint);
    occupancy_.push_back(std::move(occ));
    shape_index_.emplace(key, &shape);
    return shape;
}

void LaunchTable::check_all_placed() const {
    for (std::size_t i = 0; i < launches_.size(); ++i) {
        const LaunchState& launch = launches_[i];
        if (launch.repeated || launch.done) continue;
        throw InputError(launch_label(i, *launch.launch) + " could never be placed: no SM allowed by its "
                             "stream's mask can hold one of its blocks");
    }
}

}  // namespace gpusched::sim
