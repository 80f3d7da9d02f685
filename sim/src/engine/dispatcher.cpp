// Dispatcher: each launch's state from the GPU and the workload; readiness, room changes, the final check.
#include "gpusched/sim/engine/dispatcher.h"

#include <string>

#include "gpusched/sim/engine/completion_groups.h"
#include "gpusched/sim/engine/spec_time.h"
#include "gpusched/support/input_error.h"

namespace gpusched::sim {

namespace {

std::string launch_label(std::size_t index, const workloads::KernelLaunch& launch) {
    return "launch " + std::to_string(index) + " (" + launch.name + ")";
}

}  // namespace

Dispatcher::Dispatcher(const hw::GpuSpec& gpu, const workloads::Application& app, const DispatchPolicy& policy,
                       const SmPool& pool, std::size_t resident_slots)
    : gpu_(gpu),
      policy_(policy),
      interval_(overhead_ps(gpu.block_dispatch_interval_ns)),
      room_changed_(static_cast<std::size_t>(gpu.sm_count), 0) {
    // A completion event names a launch's operation, a resident slot or a completion group.
    if (app.launches.size() > Event::kMaxPayload || resident_slots >= CompletionGroups::kFlag)
        throw InputError("the workload has more than " + std::to_string(Event::kMaxPayload) + " launches");
    const std::vector<int> order = gpu.dispatch_order();
    for (std::size_t i = 0; i < app.launches.size(); ++i) {
        const workloads::KernelLaunch& launch = app.launches[i];
        if (!launch.work) throw InputError(launch_label(i, launch) + " has no work model");
        hw::OccupancyResult occ;
        try {
            occ = hw::compute_occupancy(gpu, launch.occupancy_request());
        } catch (const InputError& e) {
            throw InputError(launch_label(i, launch) + ": " + e.what());
        }
        occupancy_.push_back(occ);
        auto state = std::make_unique<LaunchState>();
        state->launch = &launch;
        state->work = launch.work.get();
        state->block_footprint = BlockFootprint::of(gpu, launch.occupancy_request(), occ);
        launch.work->check_block_warps(state->block_footprint.warps);
        pool.prepare(state->block_footprint);
        const workloads::StreamConfig stream = app.stream(launch.stream);
        state->priority = stream.priority;
        state->allowed.assign(static_cast<std::size_t>(gpu.sm_count), stream.sm_mask.empty() ? 1 : 0);
        for (int sm : stream.sm_mask) {
            if (sm < 0 || sm >= gpu.sm_count)
                throw InputError("stream " + std::to_string(stream.id) + ": SM " + std::to_string(sm) +
                                 " in its SM mask does not exist on " + gpu.name + " (SMs 0.." +
                                 std::to_string(gpu.sm_count - 1) + ")");
            state->allowed[static_cast<std::size_t>(sm)] = 1;
        }
        for (int sm : order)
            if (state->allowed[static_cast<std::size_t>(sm)]) state->sms_in_order.push_back(sm);
        launches_.push_back(std::move(state));
    }
}

Dispatcher::~Dispatcher() = default;

void Dispatcher::activate(std::size_t index, const SmPool& pool) {
    LaunchState& launch = *launches_[index];
    LaunchContext context;
    context.gpu = &gpu_;
    context.launch = launch.launch;
    context.occupancy = &occupancy_[index];
    context.sms_in_order = launch.sms_in_order;
    context.distributor = &distributor_;
    launch.dispatcher = policy_.start(context);
    if (launch.dispatcher->warp_level()) {
        launch.unit_footprint = launch.block_footprint.single_warp();
        pool.prepare(launch.unit_footprint);
    } else {
        launch.unit_footprint = launch.block_footprint;
    }
    const SmView view = view_of(launch, pool);
    for (int sm : launch.sms_in_order) launch.dispatcher->sm_changed(sm, view);
    active_.push_back(index);
}

void Dispatcher::flush_room_changes(const SmPool& pool) {
    if (room_changed_list_.empty()) return;
    for (std::size_t index : active_) {
        LaunchState& launch = *launches_[index];
        const SmView view = view_of(launch, pool);
        if (launch.sms_in_order.size() == static_cast<std::size_t>(gpu_.sm_count)) {  // every SM allowed
            launch.dispatcher->sms_changed(room_changed_list_, view);
            continue;
        }
        for (int sm : room_changed_list_)
            if (launch.allowed[static_cast<std::size_t>(sm)] != 0) launch.dispatcher->sm_changed(sm, view);
    }
    for (int sm : room_changed_list_) room_changed_[static_cast<std::size_t>(sm)] = 0;
    room_changed_list_.clear();
}

void Dispatcher::notify_other_launches(int sm, std::size_t placed_by, const SmPool& pool) {
    for (std::size_t index : active_) {
        LaunchState& launch = *launches_[index];
        if (index != placed_by && launch.allowed[static_cast<std::size_t>(sm)] != 0)
            launch.dispatcher->sm_changed(sm, view_of(launch, pool));
    }
}

void Dispatcher::check_all_placed() const {
    for (std::size_t i = 0; i < launches_.size(); ++i) {
        const LaunchState& launch = *launches_[i];
        if (launch.repeated) continue;
        if (!launch.dispatcher || !launch.dispatcher->finished() || launch.completed != launch.dispatched)
            throw InputError(launch_label(i, *launch.launch) + " could never be placed: no SM allowed by its "
                             "stream's mask can hold one of its blocks");
    }
}

}  // namespace gpusched::sim
