// Dispatcher: a launch's activation (its policy dispatcher made), room changes reported, done launches freed.
#include "gpusched/sim/engine/dispatcher.h"

#include <algorithm>

#include "gpusched/sim/engine/spec_time.h"

namespace gpusched::sim {

Dispatcher::Dispatcher(const hw::GpuSpec& gpu, LaunchTable& launches, const DispatchPolicy& policy)
    : gpu_(gpu),
      policy_(policy),
      occupancy_(launches.occupancy()),
      launches_(launches.states()),
      run_state_(policy.begin_run()),
      interval_(overhead_ps(gpu.block_dispatch_interval_ns)),
      room_changed_(static_cast<std::size_t>(gpu.sm_count), 0) {}

Dispatcher::~Dispatcher() = default;

void Dispatcher::activate(std::size_t index, const SmPool& pool) {
    LaunchState& launch = launches_[index];
    LaunchContext context;
    context.gpu = &gpu_;
    context.launch = launch.launch;
    context.occupancy = &occupancy_[index];
    context.sms_in_order = launch.sms_in_order();
    context.run_state = run_state_.get();
    launch.dispatcher = policy_.start(context);
    launch.counts_ends = launch.dispatcher->counts_unit_ends();
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

}  // namespace gpusched::sim
