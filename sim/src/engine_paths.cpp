// Engine: the dispatch and completion paths beyond one fixed-duration, unobserved launch (several launches, intervals, observers).
#include <algorithm>
#include <stdexcept>
#include <string>

#include "engine_launch_state.h"
#include "gpusched/sim/engine.h"

namespace gpusched::sim {

void Engine::notify_other_launches(int sm, std::size_t placed_by) {
    for (std::size_t index : active_) {
        LaunchState& launch = *launches_[index];
        if (index != placed_by && launch.allowed[static_cast<std::size_t>(sm)] != 0)
            launch.dispatcher->sm_changed(sm, view_of(launch));
    }
}

void Engine::throw_no_room(int sm) const {
    throw std::logic_error("policy " + policy_.name() + " placed a block on SM " + std::to_string(sm) + " without room");
}

void Engine::after_dispatch(LaunchState& launch, std::size_t index, const Placement& placement, int slot) {
    const Resident& r = resident_[resident_index(placement.sm, slot)];
    if (!observers_.empty()) {
        const BlockRecord record{index, placement.block, placement.sm, slot, now_, r.start, r.end};
        for (auto* o : observers_) o->on_block_dispatched(record);
    }
    if (!fixed_durations_) {
        const int warps = launch.block_footprint.warps;
        const int active = launch.dispatcher->warp_level()
                               ? 1
                               : std::clamp(launch.work->active_warps(placement.block, warps), 0, warps);
        const StartedBlock started{placement.sm, slot, index, placement.block, active, r.start};
        execution_->block_started(started, now_, *this);
    }
    if (active_.size() > 1) notify_other_launches(placement.sm, index);
}

void Engine::run_general_pass() {
    // SMs claimed by launches still waiting ahead in the same priority level (leftover rule).
    claimed_.resize(static_cast<std::size_t>(gpu_.sm_count));
    for (auto level : {workloads::StreamPriority::high, workloads::StreamPriority::normal}) {
        if (active_.size() > 1) std::fill(claimed_.begin(), claimed_.end(), false);
        for (std::size_t index : active_) {
            LaunchState& launch = *launches_[index];
            if (launch.priority != level) continue;
            bool blocked = false;
            if (active_.size() > 1)
                for (int sm : launch.sms_in_order) blocked = blocked || claimed_[static_cast<std::size_t>(sm)];
            while (!blocked && !launch.dispatcher->finished()) {
                if (dispatch_interval_ > 0 && now_ < dispatcher_free_at_) {
                    request_dispatch(dispatcher_free_at_);
                    return;
                }
                const auto placement = launch.dispatcher->next(view_of(launch));
                if (!placement) break;
                dispatch_units(launch, index, {&*placement, 1});
                if (dispatch_interval_ > 0) dispatcher_free_at_ = now_ + dispatch_interval_;
            }
            if (active_.size() > 1 && !launch.dispatcher->finished())
                for (int sm : launch.sms_in_order) claimed_[static_cast<std::size_t>(sm)] = true;
        }
    }
    std::erase_if(active_, [&](std::size_t index) { return launches_[index]->dispatcher->finished(); });
}

void Engine::set_end(int sm, int slot, Time end) {
    const std::size_t at = resident_index(sm, slot);
    resident_[at].end = end;
    queue_.push(end, Phase::completion, static_cast<std::uint32_t>(at));
}

void Engine::report_block_completed(const Resident& r, int sm, int slot) {
    const BlockRecord record{r.launch, r.block, sm, slot, r.dispatch, r.start, now_};
    for (auto* o : observers_) o->on_block_completed(record);
}

void Engine::on_launch_completed(std::size_t index) {
    const LaunchState& launch = *launches_[index];
    for (auto* o : observers_) o->on_kernel_completed(index, launch.first_start, now_);
    if (memo_.recording && index == memo_.launch) {
        memo_.recording = false;
        memo_.valid = true;
        memo_.duration = now_ - memo_.ready;
        memo_.first_start_offset = launch.first_start - memo_.ready;
    }
    finish_op(graph_.kernel_op[index]);
    start_ready_ops();
}

}  // namespace gpusched::sim
