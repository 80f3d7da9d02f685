// Dispatcher: each launch's state from the GPU and the workload; readiness, room changes, the final check.
#include "gpusched/sim/engine/dispatcher.h"

#include <algorithm>
#include <string>

#include "gpusched/hw/cluster_occupancy.h"
#include "gpusched/hw/partition_spec.h"
#include "gpusched/sim/engine/cluster_placement.h"
#include "gpusched/sim/engine/completion_groups.h"
#include "gpusched/sim/engine/spec_time.h"
#include "gpusched/support/input_error.h"

namespace gpusched::sim {

namespace {

std::string launch_label(std::size_t index, const workloads::KernelLaunch& launch) {
    return "launch " + std::to_string(index) + " (" + launch.name + ")";
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

Dispatcher::Dispatcher(const hw::GpuSpec& gpu, const workloads::Application& app, const DispatchPolicy& policy,
                       const SmPool& pool, std::size_t resident_slots)
    : gpu_(gpu),
      policy_(policy),
      interval_(overhead_ps(gpu.block_dispatch_interval_ns)),
      room_changed_(static_cast<std::size_t>(gpu.sm_count), 0) {
    // A completion event names a launch's operation, a resident slot or a completion group.
    if (app.launches.size() > Event::kMaxPayload)
        throw InputError("the workload has more than " + std::to_string(Event::kMaxPayload) + " launches");
    if (resident_slots >= CompletionGroups::kFlag)
        throw InputError("the GPU " + gpu.name + " has " + std::to_string(gpu.sm_count) + " SMs of " +
                         std::to_string(SmPool::slots_per_sm(gpu)) +
                         " resident-block slots each (max_blocks_per_sm, at most max_warps_per_sm): more than the "
                         "engine can name (sm_count rounded up to a power of two, times the slots, must stay below " +
                         std::to_string(CompletionGroups::kFlag) + ")");
    const std::vector<int> order = gpu.dispatch_order();
    const hw::StreamPriorityRange priorities = gpu.stream_priorities();
    if (!app.partitions.empty())
        partition_sets_ = hw::partition_sms(gpu, app.partitions, app.partitions_where);
    app_partition_ = app.partition;
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
        state.sms = &sms_of(unlisted ? nullptr : listed->second, order);
        if (launch.cluster)
            (void)hw::compute_cluster_occupancy(gpu, occupancy_[i], *launch.cluster, launch.cluster_nonportable,
                                                launch_label(i, launch) + ": key 'cluster'");
    }
}

const LaunchShape& Dispatcher::shape_of(std::size_t index, const workloads::KernelLaunch& launch, const SmPool& pool) {
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

const std::vector<int>* Dispatcher::partition_of(const workloads::StreamConfig* listed) const {
    if (listed != nullptr && listed->partition >= 0)
        return &partition_sets_[static_cast<std::size_t>(listed->partition)];
    if (app_partition_ >= 0 && (listed == nullptr || listed->sm_mask.empty()))
        return &partition_sets_[static_cast<std::size_t>(app_partition_)];
    return nullptr;
}

const StreamSms& Dispatcher::partition_sms(int index, const std::vector<int>& order) {
    if (const auto it = partition_streams_.find(index); it != partition_streams_.end()) return *it->second;
    StreamSms& sms = stream_sms_.emplace_back();
    sms.allowed.assign(static_cast<std::size_t>(gpu_.sm_count), 0);
    for (int sm : partition_sets_[static_cast<std::size_t>(index)]) sms.allowed[static_cast<std::size_t>(sm)] = 1;
    for (int sm : order)
        if (sms.allowed[static_cast<std::size_t>(sm)]) sms.sms_in_order.push_back(sm);
    partition_streams_.emplace(index, &sms);
    return sms;
}

const StreamSms& Dispatcher::sms_of(const workloads::StreamConfig* listed, const std::vector<int>& order) {
    if (const std::vector<int>* partition = partition_of(listed))
        return partition_sms(static_cast<int>(partition - partition_sets_.data()), order);
    if (listed == nullptr || listed->sm_mask.empty()) {
        if (unmasked_ == nullptr) {
            StreamSms& all = stream_sms_.emplace_back();
            all.allowed.assign(static_cast<std::size_t>(gpu_.sm_count), 1);
            all.sms_in_order = order;
            unmasked_ = &all;
        }
        return *unmasked_;
    }
    if (const auto it = sms_by_stream_.find(listed); it != sms_by_stream_.end()) return *it->second;
    StreamSms& sms = stream_sms_.emplace_back();
    sms.allowed.assign(static_cast<std::size_t>(gpu_.sm_count), 0);
    for (int sm : listed->sm_mask) {
        if (sm < 0 || sm >= gpu_.sm_count)
            throw InputError("stream " + std::to_string(listed->id) + ": SM " + std::to_string(sm) +
                             " in its SM mask does not exist on " + gpu_.name + " (SMs 0.." +
                             std::to_string(gpu_.sm_count - 1) + ")");
        sms.allowed[static_cast<std::size_t>(sm)] = 1;
    }
    for (int sm : order)
        if (sms.allowed[static_cast<std::size_t>(sm)]) sms.sms_in_order.push_back(sm);
    sms_by_stream_.emplace(listed, &sms);
    return sms;
}

Dispatcher::~Dispatcher() = default;

void Dispatcher::activate(std::size_t index, const SmPool& pool) {
    LaunchState& launch = launches_[index];
    LaunchContext context;
    context.gpu = &gpu_;
    context.launch = launch.launch;
    context.occupancy = &occupancy_[index];
    context.sms_in_order = launch.sms_in_order();
    context.distributor = &distributor_;
    if (launch.launch->cluster) {
        launch.dispatcher = make_cluster_dispatcher(context, *gpu_.clusters, *launch.launch->cluster, policy_);
        launch.counts_ends = true;
    } else {
        launch.dispatcher = policy_.start(context);
    }
    launch.unit_footprint =
        launch.dispatcher->warp_level() ? &launch.shape->warp_footprint : &launch.shape->block_footprint;
    const SmView view = view_of(launch, pool);
    for (int sm : launch.sms_in_order()) launch.dispatcher->sm_changed(sm, view);
    active_.push_back(index);
}

void Dispatcher::launch_done(std::size_t index) {
    LaunchState& launch = launches_[index];
    launch.done = true;
    if (std::find(active_.begin(), active_.end(), index) == active_.end()) launch.dispatcher.reset();
}

void Dispatcher::flush_room_changes(const SmPool& pool) {
    if (room_changed_list_.empty()) return;
    for (std::size_t index : active_) {
        LaunchState& launch = launches_[index];
        const SmView view = view_of(launch, pool);
        if (launch.sms_in_order().size() == static_cast<std::size_t>(gpu_.sm_count)) {  // every SM allowed
            launch.dispatcher->sms_changed(room_changed_list_, view);
            continue;
        }
        const std::vector<std::uint8_t>& allowed = launch.allowed();
        for (int sm : room_changed_list_)
            if (allowed[static_cast<std::size_t>(sm)] != 0) launch.dispatcher->sm_changed(sm, view);
    }
    for (int sm : room_changed_list_) room_changed_[static_cast<std::size_t>(sm)] = 0;
    room_changed_list_.clear();
}

void Dispatcher::notify_other_launches(int sm, std::size_t placed_by, const SmPool& pool) {
    for (std::size_t index : active_) {
        LaunchState& launch = launches_[index];
        if (index != placed_by && launch.allowed()[static_cast<std::size_t>(sm)] != 0)
            launch.dispatcher->sm_changed(sm, view_of(launch, pool));
    }
}

void Dispatcher::check_all_placed() const {
    for (std::size_t i = 0; i < launches_.size(); ++i) {
        const LaunchState& launch = launches_[i];
        if (launch.repeated || launch.done) continue;
        throw InputError(launch_label(i, *launch.launch) + " could never be placed: no SM allowed by its "
                             "stream's mask can hold one of its blocks");
    }
}

}  // namespace gpusched::sim
