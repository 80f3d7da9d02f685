// Engine: a launch's life through the units (ready, memoised or dispatched, completed) and the per-block reports.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "gpusched/sim/engine.h"
#include "gpusched/support/checked_time.h"

namespace gpusched::sim {

void Engine::on_operation_event(std::size_t op) {
    if (const auto launch = front_.on_event(op)) on_kernel_ready(*launch);
    front_.start_ready();
}

bool Engine::idle_for_memo() const {
    // ops_in_flight == 1: the arriving kernel is the only operation started and not finished.
    const Time now = core_.now();
    // Pending events are allowed only where nothing can run beside the launch (one stream): with a host
    // timeline, the host's next calls are always pending, and on one stream whatever they issue waits for it.
    if (!memo_.enabled() || policy_.keeps_state() || dispatcher_.active_count() != 0 ||
        dispatcher_.units_dispatched() != units_done_ || (!core_.queue().empty() && !one_stream_) || core_.pass_pending() ||
        now < dispatcher_.free_at() || now < channel_.next_free() || front_.ops_in_flight() != 1)
        return false;
    for (const auto* o : observers_)
        if (o->needs_every_block()) return false;
    return true;
}

void Engine::repeat_memo(std::size_t index) {
    launches_[index].repeated = true;
    const Time now = core_.now();
    checked_time_sum(now, memo_.recorded_duration(), [&] { return describe_launch(index) + ": its end"; });
    const Memoiser::Repeat repeat = memo_.repeat(index, now);
    for (auto* o : observers_) o->on_kernel_ready(index, now);
    for (auto* o : observers_) o->on_launch_repeated(repeat.totals);
    for (auto* o : observers_) o->on_kernel_completed(index, repeat.first_start, repeat.end);
    units_done_ += repeat.totals.units;
    dispatcher_.count_repeated(repeat.totals.units);
    core_.schedule(repeat.end, Phase::operation, static_cast<std::uint32_t>(front_.kernel_op(index)));  // it finishes then
}

void Engine::on_kernel_ready(std::size_t index) {
    channel_.kernel_ready(dispatcher_.units_dispatched() == units_done_);  // an idle GPU restarts the sweep
    if (idle_for_memo()) {
        if (memo_.can_repeat(index)) {
            repeat_memo(index);
            return;
        }
        memo_.start_recording(index, core_.now());
    } else {
        memo_.stop_recording();  // something else runs alongside: this launch's run is not reusable
    }
    dispatcher_.activate(index, pool_);
    for (auto* o : observers_) o->on_kernel_ready(index, core_.now());
    request_dispatch(core_.now());
}

void Engine::on_launch_completed(std::size_t index) {
    const LaunchState& launch = launches_[index];
    const Time now = core_.now();
    for (auto* o : observers_) o->on_kernel_completed(index, launch.first_start, now);
    memo_.launch_completed(index, now, launch.first_start);
    front_.kernel_finished(index);
    dispatcher_.launch_done(index);
}

void Engine::after_dispatch(LaunchState& launch, std::size_t index, const Placement& placement, int slot) {
    const Resident& r = residents_[residents_.index(placement.sm, slot)];
    const Time now = core_.now();
    if (!observers_.empty()) {
        const BlockRecord record{index, placement.block, placement.sm, slot, now, r.start, r.end};
        for (auto* o : observers_) o->on_block_dispatched(record);
    }
    if (!fixed_durations_) {
        const int warps = launch.block_footprint().warps;
        const int active = launch.dispatcher->warp_level()
                               ? 1
                               : std::clamp(launch.work->active_warps(placement.block, warps), 0, warps);
        const StartedBlock started{placement.sm, slot, index, placement.block, active, r.start};
        execution_->block_started(started, now, *this);
    }
    if (dispatcher_.active_count() > 1) dispatcher_.notify_other_launches(placement.sm, index, pool_);
}

void Engine::set_end(int sm, int slot, Time end) {
    const std::size_t at = residents_.index(sm, slot);
    residents_[at].end = end;
    // An end past the range waits at the last representable instant (run() reports it then).
    core_.queue().push(std::min(end, kTimeLimit - 1), Phase::completion, static_cast<std::uint32_t>(at));
}

std::string Engine::describe_launch(std::size_t index) const {
    const std::string where = front_.where(front_.kernel_op(index));
    return "launch " + std::to_string(index) + " (" + app_.launches[index].name + (where.empty() ? "" : ", " + where) +
           ")";
}

void Engine::throw_block_end_overflow(std::size_t index, std::uint64_t block, Time start,
                                      std::optional<Time> duration) const {
    const std::string runs = duration ? " and runs " + format_ns(*duration) + " ns" : " and runs at its SM's rates";
    throw_time_overflow(describe_launch(index),
                        "block " + std::to_string(block) + " starts at " + format_ns(start) + " ns" + runs + ": its end");
}

void Engine::report_block_completed(const Resident& r, int sm, int slot) {
    const BlockRecord record{r.launch, r.block, sm, slot, r.dispatch, r.start, core_.now()};
    for (auto* o : observers_) o->on_block_completed(record);
}

void Engine::throw_no_room(int sm) const {
    throw std::logic_error("policy " + policy_.name() + " placed a block on SM " + std::to_string(sm) + " without room");
}

}  // namespace gpusched::sim
