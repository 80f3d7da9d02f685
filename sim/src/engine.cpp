// Engine: construction, the event loop, and a block's start and end through the units.
#include "gpusched/sim/engine.h"

#include <algorithm>
#include <stdexcept>

#include "gpusched/support/checked_time.h"
#include "gpusched/support/input_error.h"

namespace gpusched::sim {

namespace {

const workloads::Application& with_launches(const workloads::Application& app) {
    if (app.launches.empty()) throw InputError("the workload has no kernel launches");
    return app;
}

std::unique_ptr<ExecutionModel> present(std::unique_ptr<ExecutionModel> model) {
    if (!model) throw std::invalid_argument("Engine: no execution model");
    return model;
}

}  // namespace

Engine::Engine(const hw::GpuSpec& gpu, const workloads::Application& app, const DispatchPolicy& policy,
               const std::string& execution)
    : Engine(gpu, app, policy, make_execution_model(execution, gpu, app)) {}

Engine::Engine(const hw::GpuSpec& gpu, const workloads::Application& app, const DispatchPolicy& policy,
               std::unique_ptr<ExecutionModel> execution)
    : gpu_(gpu),
      app_(with_launches(app)),
      policy_(policy),
      execution_(present(std::move(execution))),
      fixed_durations_(execution_->durations_fixed()),
      pool_(gpu),
      residents_(gpu),
      channel_(gpu),
      pipeline_(gpu),
      launches_(gpu, app, pool_, residents_.size()),
      dispatcher_(gpu, launches_, policy),
      front_(gpu, app, core_, core_, observers_),
      memo_(app, gpu.sm_count),
      one_stream_(on_one_stream(app_)) {}

bool Engine::on_one_stream(const workloads::Application& app) {
    if (!app.operations.empty())
        return std::all_of(app.operations.begin(), app.operations.end(),
                           [&](const workloads::Operation& op) { return op.stream == app.operations.front().stream; });
    for (std::size_t i = 1; i < app.launches.size(); ++i)
        if (app.launches[i].stream != app.launches[0].stream) return false;
    return true;
}

Engine::~Engine() = default;

Engine::UnitStart Engine::unit_start() const {
    const Time now = core_.now();
    return {now, now + pipeline_.latency(), pipeline_.active(), fixed_durations_,
            !observers_.empty() || !fixed_durations_ || dispatcher_.active_count() > 1};
}

[[gnu::always_inline]] inline std::size_t Engine::start_unit(LaunchState& launch, std::size_t index,
                                                             const Placement& placement, const UnitStart& how, bool push) {
    const int slot = pool_.reserve(placement.sm, *launch.unit_footprint);
    if (slot < 0) [[unlikely]]
        throw_no_room(placement.sm);
    const Time start = how.pipeline ? pipeline_.start(placement.sm, how.ready, launch.unit_footprint->warps) : how.ready;
    residents_.ensure_slot(slot);
    const std::size_t at = residents_.index(placement.sm, slot);
    Resident& r = residents_[at];
    r = {placement.block, how.now, start, 0, static_cast<std::uint32_t>(index)};
    if (!launch.started) {
        launch.started = true;
        launch.first_start = start;
    }
    if (how.fixed) {
        const Time duration = launch.work->duration(placement.block);
        const std::optional<Time> end = time_sum(start, duration);
        if (!end) [[unlikely]]
            throw_block_end_overflow(index, placement.block, start, duration);
        r.end = *end;
        if (push) core_.queue().push(r.end, Phase::completion, static_cast<std::uint32_t>(at));
    }
    if (how.more) after_dispatch(launch, index, placement, slot);
    return at;
}

void Engine::dispatch_units(LaunchState& launch, std::size_t index, std::span<const Placement> placements) {
    const UnitStart how = unit_start();
    if (!how.fixed || how.more || channel_.active()) {
        for (const Placement& placement : placements) start_unit(launch, index, placement, how, true);
        if (replay_.counting())
            for (const Placement& placement : placements) replay_.count(placement.sm);
        return;
    }
    // Nothing else is scheduled during this loop: blocks that end together share one event.
    CompletionGroups::Batch batch;
    for (const Placement& placement : placements) {
        const auto at = static_cast<std::uint32_t>(start_unit(launch, index, placement, how, false));
        groups_.add(batch, core_.queue(), at, residents_[at].end);
    }
    groups_.finish(batch, core_.queue());
}

std::optional<std::size_t> Engine::wave_candidate() const {
    if (!replay_.enabled() || !fixed_durations_ || pipeline_.active() || channel_.active() ||
        dispatcher_.active_count() != 1 || dispatcher_.paced() || dispatcher_.units_dispatched() != units_done_)
        return std::nullopt;
    for (const auto* o : observers_)
        if (o->needs_every_block()) return std::nullopt;
    const std::size_t index = dispatcher_.first_active();
    const LaunchState& launch = launches_[index];
    if (launch.counts_ends || launch.dispatcher->warp_level() || !launch.work->same_duration_for_every_block())
        return std::nullopt;
    return index;
}

void Engine::skip_repeated_waves(std::size_t index) {
    LaunchState& launch = launches_[index];
    const Time now = core_.now();
    const Time next = core_.queue().empty() ? kTimeLimit : core_.queue().top().time;
    const std::uint64_t waves = replay_.waves_to_skip(index, now, launch.launch->blocks() - launch.dispatched, next);
    if (waves == 0) return;
    const std::uint64_t units = waves * replay_.units();
    // As if `waves` passes had dispatched the recorded wave and its blocks had ended.
    const Time end = now + static_cast<Time>(waves) * replay_.period();
    RepeatedLaunch totals{index, index, units, {}, {}};
    for (const std::uint64_t per_sm : replay_.per_sm_units()) {  // counted only for observers
        Time busy = 0;
        if (__builtin_mul_overflow(static_cast<Time>(per_sm * waves), replay_.block_time(), &busy)) return;
        totals.per_sm_units.push_back(per_sm * waves);
        totals.per_sm_busy.push_back(busy);
    }
    if (!launch.dispatcher->skip_units(units)) return;
    for (auto* o : observers_) o->on_launch_repeated(totals);
    memo_.count_repeated(index, totals);
    core_.set_now(end);
    last_end_ = std::max(last_end_, end);
    units_done_ += units;
    launch.dispatched += units;
    launch.completed += units;
    dispatcher_.count_repeated(units);
    replay_.skipped(units);
}

void Engine::run_dispatch_pass() {
    const std::optional<std::size_t> wave = wave_candidate();
    if (!wave) {
        replay_.forget();
    } else {
        skip_repeated_waves(*wave);
        replay_.begin_wave(*wave, !observers_.empty(), gpu_.sm_count);
    }
    const std::uint64_t before = dispatcher_.units_dispatched();
    dispatcher_.run_pass(core_, pool_, [this](LaunchState& launch, std::size_t index, std::span<const Placement> placements) {
        dispatch_units(launch, index, placements);
    });
    if (!wave) return;
    // The wave is reusable while its launch has units left (it stopped for want of room).
    if (dispatcher_.active_count() != 1 || dispatcher_.first_active() != *wave) {
        replay_.forget();
        return;
    }
    const LaunchState& launch = launches_[*wave];
    const Time now = core_.now();
    const Time block_time = launch.work->duration(0);  // the same for every block
    const std::optional<Time> end = time_sum(now + pipeline_.latency(), block_time);
    if (!end) {
        replay_.forget();
        return;
    }
    replay_.record(now, *end, block_time, dispatcher_.units_dispatched() - before);
}

[[gnu::always_inline]] inline bool Engine::try_refill(int sm) {
    const bool refilled =
        dispatcher_.try_refill(sm, core_, pool_, [this](LaunchState& launch, std::size_t index, const Placement& placement) {
            start_unit(launch, index, placement, unit_start(), true);
        });
    if (refilled) replay_.forget();
    return refilled;
}

bool Engine::on_block_end(std::size_t at) {
    const Time now = core_.now();
    const int sm = residents_.sm_of(at);
    const int slot = residents_.slot_of(at);
    if (!fixed_durations_) execution_->block_finished(sm, slot, now, *this);
    Resident& live = residents_[at];
    const Resident r = live;
    live.launch = Resident::kFree;
    LaunchState& launch = launches_[r.launch];
    ++units_done_;
    last_end_ = std::max(last_end_, now);
    if (!observers_.empty()) report_block_completed(r, sm, slot);
    memo_.count_block(r.launch, sm, now - r.start, !observers_.empty());
    if (launch.counts_ends) launch.dispatcher->unit_ended(sm);
    if (++launch.completed == launch.dispatched && launch.dispatcher->finished()) on_launch_completed(r.launch);
    return channel_.release_now(core_.queue(), now, sm, at);
}

void Engine::end_group(std::uint32_t group, Time time) {
    // As on_block_end and the event loop do for each member's own event: fixed durations,
    // no observers, no completion channel, one launch for all members, no member superseded
    // (set_end exists only for durations that are not fixed); a member's try_refill would
    // decline (more events at this instant, then a pending room change). Only the last member
    // can end its launch, and on_launch_completed looks at no slot, so it comes after the
    // last release here. Without observers the memo keeps no per-SM totals.
    const std::vector<std::uint32_t>& members = groups_.members(group);
    core_.set_now(time);
    last_end_ = std::max(last_end_, time);
    units_done_ += members.size();
    const std::uint32_t index = residents_[members.front()].launch;
    const ResidentTable::Layout layout = residents_.layout();
    LaunchState& launch = launches_[index];
    for (const std::uint32_t at : members) {
        residents_[at].launch = Resident::kFree;
        const int sm = layout.sm_of(at);
        pool_.release(sm, layout.slot_of(at));
        dispatcher_.mark_room_changed(sm);
        if (launch.counts_ends) launch.dispatcher->unit_ended(sm);
    }
    memo_.count_units(index, members.size());
    launch.completed += members.size();
    groups_.close(group);
    if (launch.completed == launch.dispatched && launch.dispatcher->finished()) on_launch_completed(index);
}

SimResult Engine::run() {
    RunInfo info;
    info.gpu = &gpu_;
    info.app = &app_;
    info.policy = policy_.name();
    info.execution = execution_->name();
    info.occupancy = launches_.occupancy();
    info.launch_sm_counts = launches_.sm_counts();
    for (auto* o : observers_) o->on_begin(info);
    front_.start();
    EventQueue& queue = core_.queue();
    while (core_.busy()) {
        if (core_.pass_due()) {
            core_.begin_pass();
            run_dispatch_pass();
            continue;
        }
        // When more completions share the instant of a block's end (no completion channel),
        // they are handled here in one go, each releasing its slot at once: the pass waits
        // for them anyway, and after the first release a room change is pending, so no refill
        // would be tried. The calls below are their only calls (so they are inlined).
        bool same_instant = false;
        do {
            const Event e = queue.pop();
            std::size_t at = e.payload();
            if (e.phase() == Phase::operation) {
                core_.set_now(e.time);
                on_operation_event(at);
                continue;
            }
            if (e.phase() == Phase::completion) {
                if (CompletionGroups::is_group(at)) {  // two members or more: a pass follows
                    end_group(CompletionGroups::id_of(at), e.time);
                    same_instant = true;
                    continue;
                }
                const Resident& r = residents_[at];
                if (r.launch == Resident::kFree || r.end != e.time) {  // superseded by a later set_end
                    if (r.launch != Resident::kFree && r.end >= kTimeLimit && e.time == kTimeLimit - 1) [[unlikely]]
                        throw_block_end_overflow(r.launch, r.block, r.start, std::nullopt);
                    continue;
                }
                core_.set_now(e.time);
                if (!on_block_end(at)) continue;
            } else {
                core_.set_now(e.time);
                if (at == CompletionChannel::kTake) at = channel_.take(queue, e.time);
            }
            const int sm = residents_.sm_of(at);
            pool_.release(sm, residents_.slot_of(at));
            if (!same_instant) {
                if (try_refill(sm)) continue;
                same_instant = !channel_.active() && queue.next_is(core_.now(), Phase::completion);
            }
            dispatcher_.mark_room_changed(sm);
            if (!same_instant && dispatcher_.active_count() != 0) request_dispatch(core_.now());
        } while (same_instant && queue.next_is(core_.now(), Phase::completion));
        if (same_instant && dispatcher_.active_count() != 0) request_dispatch(core_.now());
    }
    front_.host().check_done();
    launches_.check_all_placed();
    const Time makespan = std::max({last_end_, memo_.last_end(), front_.last_end()});
    if (front_.host().active())
        for (auto* o : observers_) o->on_host_waits(front_.host().sync_wait(), front_.host().queue_wait());
    for (auto* o : observers_) o->on_end(makespan);
    return {makespan, units_done_};
}

}  // namespace gpusched::sim
