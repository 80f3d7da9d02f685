// The event loop: streams and the execution-engine queue, dispatch passes, block completions.
#include "gpusched/sim/engine.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "gpusched/support/input_error.h"
#include "engine_launch_state.h"
#include "gpusched/sim/swept_completion_queue.h"

namespace gpusched::sim {

namespace {

int bits_for(int slots) {
    int bits = 0;
    while ((1 << bits) < slots) ++bits;
    return bits;
}

/// Payload flag of a completion event that stands for a completion group (engine.h).
constexpr std::uint32_t kGroup = std::uint32_t{1} << (Event::kPayloadBits - 1);
/// Payload of a release event at which the swept completion channel takes its next completion.
constexpr std::uint32_t kChannelTake = static_cast<std::uint32_t>(Event::kMaxPayload);

Time overhead_ps(const std::optional<double>& ns) {
    return ns ? static_cast<Time>(std::llround(*ns * 1000.0)) : 0;
}

std::string launch_label(std::size_t index, const workloads::KernelLaunch& launch) {
    return "launch " + std::to_string(index) + " (" + launch.name + ")";
}

}  // namespace

Engine::Engine(const hw::GpuSpec& gpu, const workloads::Application& app, const DispatchPolicy& policy,
               const std::string& execution)
    : gpu_(gpu),
      app_(app),
      policy_(policy),
      execution_(make_execution_model(execution, gpu, app)),
      fixed_durations_(execution_->durations_fixed()),
      pool_(gpu),
      sm_bits_(bits_for(gpu.sm_count)),
      sm_mask_((std::size_t{1} << sm_bits_) - 1),
      resident_(static_cast<std::size_t>(gpu.max_blocks_per_sm) << sm_bits_),
      launch_overhead_(overhead_ps(gpu.kernel_launch_ns)),
      dispatch_latency_(overhead_ps(gpu.block_dispatch_latency_ns)),
      dispatch_interval_(overhead_ps(gpu.block_dispatch_interval_ns)),
      sm_block_launch_(overhead_ps(gpu.sm_block_launch_ns)),
      sm_warp_launch_ps_(gpu.sm_warp_launch_ns.value_or(0) * 1000.0),
      launch_pipeline_(sm_block_launch_ > 0 || sm_warp_launch_ps_ > 0),
      sm_launch_free_(static_cast<std::size_t>(gpu.sm_count), 0),
      completion_interval_(overhead_ps(gpu.block_completion_interval_ns)),
      room_changed_(static_cast<std::size_t>(gpu.sm_count), 0) {
    if (app.launches.empty()) throw InputError("the workload has no kernel launches");
    if (gpu.completion_sweep)
        if (const auto problem = hw::completion_sweep_problem(*gpu.completion_sweep, gpu.sm_count, "topology.completion_sweep");
            !problem.empty())
            throw InputError("GPU '" + gpu.name + "': " + problem);
    if (gpu.completion_sweep && completion_interval_ > 0)
        swept_ = std::make_unique<SweptCompletionQueue>(*gpu.completion_sweep, gpu.sm_count);
    if (app.launches.size() > Event::kMaxPayload || resident_.size() >= kGroup)
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
        pool_.prepare(state->block_footprint);
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
    graph_ = workloads::build_operation_graph(app);
    if (graph_.ops.size() > Event::kMaxPayload)
        throw InputError("the workload has more than " + std::to_string(Event::kMaxPayload) + " operations");
    unfinished_deps_ = graph_.predecessors;
    kernel_arrived_.assign(app.launches.size(), 0);
    if (app.host_issue == workloads::HostIssue::calls) {
        if (!gpu.host_launch_interval_ns)
            throw InputError("the workload issues its operations as host calls (issue: host-calls), but the GPU spec " +
                             gpu.name + " has no overheads.host_launch_interval_ns");
        host_interval_ = overhead_ps(gpu.host_launch_interval_ns);
        awaiting_issue_.assign(graph_.ops.size(), 0);
    }
    prepare_copies();
}

void Engine::prepare_copies() {
    const auto copy = std::find_if(graph_.ops.begin(), graph_.ops.end(),
                                   [](const workloads::Operation& op) { return op.kind == workloads::Operation::Kind::copy; });
    if (copy == graph_.ops.end()) return;
    const std::string what = workloads::describe_operation(*copy, static_cast<std::size_t>(copy - graph_.ops.begin()));
    if (!gpu_.host_link_gbps || !gpu_.copy_engines)
        throw InputError(what + ": the GPU spec " + gpu_.name +
                         " lacks host_link.bandwidth_gbps or host_link.copy_engines, which copies need");
    if (*gpu_.copy_engines < 1)
        throw InputError(what + ": " + gpu_.name + " has no copy engine (host_link.copy_engines: 0); copies that "
                         "stall kernels are not modelled");
    copy_engine_free_.assign(*gpu_.copy_engines >= 2 ? 2 : 1, 0);
    // bytes / (GB/s) = ns per 10^9 bytes: 1000 / gbps picoseconds per byte.
    copy_pinned_ps_per_byte_ = 1000.0 / *gpu_.host_link_gbps;
    if (gpu_.host_link_pageable_gbps) copy_pageable_ps_per_byte_ = 1000.0 / *gpu_.host_link_pageable_gbps;
    copy_latency_ = overhead_ps(gpu_.host_link_latency_ns);
    for (std::size_t i = 0; i < graph_.ops.size(); ++i) {
        const workloads::Operation& op = graph_.ops[i];
        if (op.kind == workloads::Operation::Kind::copy && !op.copy.pinned && !gpu_.host_link_pageable_gbps)
            throw InputError(workloads::describe_operation(op, i) + ": a pageable copy needs "
                             "host_link.pageable_bandwidth_gbps, which the GPU spec " + gpu_.name + " lacks");
    }
}

Engine::~Engine() = default;

SmView Engine::view_of(const LaunchState& launch) const {
    return SmView(pool_, launch.unit_footprint, launch.allowed);
}

void Engine::start_ready_ops() {
    // In the order they became ready (ascending within one finished operation); start_op may
    // append more (record and wait finish at once).
    for (std::size_t i = 0; i < ready_ops_.size(); ++i) start_op(ready_ops_[i]);
    ready_ops_.clear();
}

void Engine::start_op(std::size_t op) {
    ++ops_in_flight_;
    if (host_interval_ > 0 && awaiting_issue_[op] == 0) {
        const Time issued = host_interval_ * static_cast<Time>(op);
        if (issued > now_) {
            awaiting_issue_[op] = 1;
            queue_.push(issued, Phase::operation, static_cast<std::uint32_t>(op));
            return;
        }
    }
    const workloads::Operation& o = graph_.ops[op];
    const auto payload = static_cast<std::uint32_t>(op);
    switch (o.kind) {
        case workloads::Operation::Kind::kernel: queue_.push(now_ + launch_overhead_, Phase::operation, payload); break;
        case workloads::Operation::Kind::copy: start_copy(op); break;
        case workloads::Operation::Kind::delay: queue_.push(now_ + o.delay, Phase::operation, payload); break;
        case workloads::Operation::Kind::record:
        case workloads::Operation::Kind::wait: finish_op(op); break;
    }
}

void Engine::start_copy(std::size_t op) {
    const workloads::Operation& o = graph_.ops[op];
    const int engine = copy_engine_free_.size() == 1 || o.copy.direction == workloads::CopyDirection::host_to_device ? 0 : 1;
    Time& free_at = copy_engine_free_[static_cast<std::size_t>(engine)];
    const double ps_per_byte = o.copy.pinned ? copy_pinned_ps_per_byte_ : copy_pageable_ps_per_byte_;
    const Time start = std::max(now_, free_at);
    const Time end = start + copy_latency_ + static_cast<Time>(std::llround(ps_per_byte * static_cast<double>(o.copy.bytes)));
    free_at = end;
    const CopyRecord record{op, o.stream, o.copy.direction, o.copy.bytes, o.copy.pinned, engine, now_, start, end};
    for (auto* obs : observers_) obs->on_copy(record);
    queue_.push(end, Phase::operation, static_cast<std::uint32_t>(op));
}

void Engine::finish_op(std::size_t op) {
    --ops_in_flight_;
    last_op_end_ = std::max(last_op_end_, now_);
    for (std::size_t next : graph_.successors[op])
        if (--unfinished_deps_[next] == 0) ready_ops_.push_back(next);
}

void Engine::on_operation_event(std::size_t op) {
    if (host_interval_ > 0 && awaiting_issue_[op] == 1) {
        awaiting_issue_[op] = 2;  // issued now: start it (2 = never waits again)
        --ops_in_flight_;
        start_op(op);
        start_ready_ops();
        return;
    }
    const workloads::Operation& o = graph_.ops[op];
    if (o.kind == workloads::Operation::Kind::kernel && kernel_arrived_[o.launch] == 0) {
        kernel_arrived_[o.launch] = 1;
        on_kernel_ready(o.launch);
    } else {
        finish_op(op);  // a copy or delay ended, or a memoised kernel's repeated run did
    }
    start_ready_ops();
}

namespace {
bool same_launch(const workloads::KernelLaunch& a, const workloads::KernelLaunch& b) {
    return a.name == b.name && a.grid == b.grid && a.block == b.block &&
           a.registers_per_thread == b.registers_per_thread && a.static_shared_bytes == b.static_shared_bytes &&
           a.dynamic_shared_bytes == b.dynamic_shared_bytes && a.barriers_per_block == b.barriers_per_block &&
           a.carveout.kind == b.carveout.kind && a.carveout.percent == b.carveout.percent && a.stream == b.stream &&
           a.work == b.work;
}
}  // namespace

bool Engine::idle_for_memo() const {
    // ops_in_flight_ == 1: the arriving kernel is the only operation started and not finished.
    if (!memoise_ || policy_.keeps_state() || !active_.empty() || units_dispatched_ != units_done_ || !queue_.empty() || dispatch_pending_ ||
        now_ < dispatcher_free_at_ || now_ < channel_next_ || ops_in_flight_ != 1)
        return false;
    for (const auto* o : observers_)
        if (o->needs_every_block()) return false;
    return true;
}

void Engine::repeat_memo(std::size_t index) {
    LaunchState& launch = *launches_[index];
    launch.repeated = true;
    RepeatedLaunch totals = memo_.totals;
    totals.launch = index;
    totals.same_as = memo_.launch;
    const Time end = now_ + memo_.duration;
    for (auto* o : observers_) o->on_kernel_ready(index, now_);
    for (auto* o : observers_) o->on_launch_repeated(totals);
    for (auto* o : observers_) o->on_kernel_completed(index, now_ + memo_.first_start_offset, end);
    units_done_ += totals.units;
    units_dispatched_ += totals.units;
    last_memo_end_ = std::max(last_memo_end_, end);
    queue_.push(end, Phase::operation, static_cast<std::uint32_t>(graph_.kernel_op[index]));  // it finishes then
}

void Engine::on_kernel_ready(std::size_t index) {
    if (swept_ && swept_->empty() && units_dispatched_ == units_done_) swept_->restart();  // an idle GPU
    if (idle_for_memo()) {
        if (memo_.valid && same_launch(*launches_[memo_.launch]->launch, *launches_[index]->launch)) {
            repeat_memo(index);
            return;
        }
        memo_.recording = true;
        memo_.launch = index;
        memo_.ready = now_;
        memo_.totals = RepeatedLaunch{};
        memo_.totals.per_sm_units.assign(static_cast<std::size_t>(gpu_.sm_count), 0);
        memo_.totals.per_sm_busy.assign(static_cast<std::size_t>(gpu_.sm_count), 0);
    } else {
        memo_.recording = false;  // something else runs alongside: this launch's run is not reusable
    }
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
        pool_.prepare(launch.unit_footprint);
    } else {
        launch.unit_footprint = launch.block_footprint;
    }
    const SmView view = view_of(launch);
    for (int sm : launch.sms_in_order) launch.dispatcher->sm_changed(sm, view);
    active_.push_back(index);
    for (auto* o : observers_) o->on_kernel_ready(index, now_);
    request_dispatch(now_);
}

void Engine::request_dispatch(Time when) {
    const Time at = std::max(when, dispatcher_free_at_);
    if (dispatch_pending_ && dispatch_at_ <= at) return;
    dispatch_pending_ = true;
    dispatch_at_ = at;
}

void Engine::mark_room_changed(int sm) {
    std::uint8_t& flag = room_changed_[static_cast<std::size_t>(sm)];
    if (flag != 0) return;
    flag = 1;
    room_changed_list_.push_back(sm);
}

void Engine::flush_room_changes() {
    if (room_changed_list_.empty()) return;
    for (std::size_t index : active_) {
        LaunchState& launch = *launches_[index];
        const SmView view = view_of(launch);
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

Time Engine::pipeline_start(const LaunchState& launch, int sm) {
    Time& free_at = sm_launch_free_[static_cast<std::size_t>(sm)];
    const Time start = std::max(now_ + dispatch_latency_, free_at);
    free_at = start + sm_block_launch_ + static_cast<Time>(std::llround(sm_warp_launch_ps_ * launch.unit_footprint.warps));
    return start;
}

/// What starting a unit reads of the engine: read once per batch, since the loop's stores could alias it.
struct Engine::UnitStart {
    Time now;
    Time ready;     ///< now + dispatch latency
    bool pipeline;  ///< launch_pipeline_
    bool fixed;     ///< fixed_durations_
    bool more;      ///< after_dispatch is needed
};

Engine::UnitStart Engine::unit_start() const {
    return {now_, now_ + dispatch_latency_, launch_pipeline_, fixed_durations_,
            !observers_.empty() || !fixed_durations_ || active_.size() > 1};
}

[[gnu::always_inline]] inline std::size_t Engine::start_unit(LaunchState& launch, std::size_t index,
                                                             const Placement& placement, const UnitStart& how, bool push) {
    const int slot = pool_.reserve(placement.sm, launch.unit_footprint);
    if (slot < 0) [[unlikely]]
        throw_no_room(placement.sm);
    const Time start = how.pipeline ? pipeline_start(launch, placement.sm) : how.ready;
    const std::size_t at = resident_index(placement.sm, slot);
    Resident& r = resident_[at];
    r = {placement.block, how.now, start, 0, static_cast<std::uint32_t>(index)};
    if (!launch.started) {
        launch.started = true;
        launch.first_start = start;
    }
    if (how.fixed) {
        r.end = start + launch.work->duration(placement.block);
        if (push) queue_.push(r.end, Phase::completion, static_cast<std::uint32_t>(at));
    }
    if (how.more) after_dispatch(launch, index, placement, slot);
    return at;
}

void Engine::dispatch_units(LaunchState& launch, std::size_t index, std::span<const Placement> placements) {
    const UnitStart how = unit_start();
    if (!how.fixed || how.more || completion_interval_ != 0) {
        for (const Placement& placement : placements) start_unit(launch, index, placement, how, true);
    } else {
        // Nothing else is scheduled during this loop: each completion event is pushed when the
        // next placement's end differs (the same sequence order as pushing it at once), and
        // placements that end together share one event, a completion group.
        std::uint32_t first = 0;
        std::uint32_t group = kGroup;  // kGroup: no group yet, `first` alone
        Time end = 0;
        for (std::size_t i = 0; i < placements.size(); ++i) {
            const auto at = static_cast<std::uint32_t>(start_unit(launch, index, placements[i], how, false));
            const Time next_end = resident_[at].end;
            if (i > 0 && next_end == end) {
                if (group == kGroup) {
                    group = open_group();
                    groups_[group].push_back(first);
                }
                groups_[group].push_back(at);
                continue;
            }
            if (i > 0) queue_.push(end, Phase::completion, group == kGroup ? first : kGroup | group);
            first = at;
            group = kGroup;
            end = next_end;
        }
        if (!placements.empty()) queue_.push(end, Phase::completion, group == kGroup ? first : kGroup | group);
    }
    launch.dispatched += placements.size();
    units_dispatched_ += placements.size();
}

std::uint32_t Engine::open_group() {
    if (free_groups_.empty()) {
        groups_.emplace_back();
        return static_cast<std::uint32_t>(groups_.size() - 1);
    }
    const std::uint32_t group = free_groups_.back();
    free_groups_.pop_back();
    return group;
}

void Engine::run_dispatch_pass() {
    dispatch_pending_ = false;
    flush_room_changes();
    if (active_.size() == 1 && dispatch_interval_ == 0) {  // the common case: no leftover or priority decisions
        LaunchState& launch = *launches_[active_.front()];
        const SmView view = view_of(launch);
        const std::size_t index = active_.front();
        std::size_t n = 0;
        do {
            n = launch.dispatcher->next_batch(view, batch_);
            dispatch_units(launch, index, {batch_.data(), n});
        } while (n == batch_.size());
        if (launch.dispatcher->finished()) active_.clear();
        return;
    }
    run_general_pass();
}

bool Engine::on_block_end(std::size_t at) {
    const int sm = static_cast<int>(at & sm_mask_);
    const int slot = static_cast<int>(at >> sm_bits_);
    if (!fixed_durations_) execution_->block_finished(sm, slot, now_, *this);
    Resident& live = resident_[at];
    const Resident r = live;
    const Time start = r.start;
    live.launch = Resident::kFree;
    LaunchState& launch = *launches_[r.launch];
    ++units_done_;
    last_end_ = std::max(last_end_, now_);
    if (!observers_.empty()) report_block_completed(r, sm, slot);
    if (memo_.recording && r.launch == memo_.launch) {
        if (!observers_.empty()) {  // the per-SM totals reach only observers (on_launch_repeated)
            ++memo_.totals.per_sm_units[static_cast<std::size_t>(sm)];
            memo_.totals.per_sm_busy[static_cast<std::size_t>(sm)] += now_ - start;
        }
        ++memo_.totals.units;
    }
    if (++launch.completed == launch.dispatched && launch.dispatcher->finished()) on_launch_completed(r.launch);
    if (completion_interval_ == 0) return true;
    if (swept_ && (now_ < channel_next_ || !swept_->empty())) {
        swept_->push(sm, static_cast<std::uint32_t>(at));
        if (!channel_take_queued_) queue_.push(std::max(now_, channel_next_), Phase::release, kChannelTake);
        channel_take_queued_ = true;
        return false;
    }
    const Time release = std::max(now_, channel_next_);
    channel_next_ = release + completion_interval_;
    if (release == now_) return true;
    queue_.push(release, Phase::release, static_cast<std::uint32_t>(at));
    return false;
}

std::size_t Engine::take_swept_completion() {
    const std::size_t at = swept_->pop();
    channel_next_ = now_ + completion_interval_;
    channel_take_queued_ = !swept_->empty();
    if (channel_take_queued_) queue_.push(channel_next_, Phase::release, kChannelTake);
    return at;
}

[[gnu::always_inline]] inline bool Engine::try_refill(int sm) {
    if (active_.size() != 1 || dispatch_pending_ || dispatch_interval_ != 0 || !room_changed_list_.empty()) return false;
    if (!queue_.empty() && queue_.top().time == now_) return false;  // the pass must wait for this instant's events
    const std::size_t index = active_.front();
    LaunchState& launch = *launches_[index];
    if (view_of(launch).room(sm) != 1) return false;
    const auto placement = launch.dispatcher->refill(sm);
    if (!placement) return false;
    start_unit(launch, index, *placement, unit_start(), true);
    ++launch.dispatched;
    ++units_dispatched_;
    if (launch.dispatcher->finished()) active_.clear();
    return true;
}

void Engine::end_group(std::uint32_t group, Time time) {
    // As on_block_end and the event loop do for each member's own event: fixed durations,
    // no observers, no completion channel, one launch for all members, no member superseded
    // (set_end exists only for durations that are not fixed); a member's try_refill would
    // decline (more events at this instant, then a pending room change). Only the last member
    // can end its launch, and on_launch_completed looks at no slot, so it comes after the
    // last release here. Without observers the memo keeps no per-SM totals.
    const std::vector<std::uint32_t>& members = groups_[group];
    now_ = time;
    last_end_ = std::max(last_end_, time);
    units_done_ += members.size();
    const std::uint32_t index = resident_[members.front()].launch;
    for (const std::uint32_t at : members) {
        resident_[at].launch = Resident::kFree;
        const int sm = static_cast<int>(at & sm_mask_);
        pool_.release(sm, static_cast<int>(at >> sm_bits_));
        mark_room_changed(sm);
    }
    if (memo_.recording && index == memo_.launch) memo_.totals.units += members.size();
    LaunchState& launch = *launches_[index];
    launch.completed += members.size();
    groups_[group].clear();
    free_groups_.push_back(group);
    if (launch.completed == launch.dispatched && launch.dispatcher->finished()) on_launch_completed(index);
}

SimResult Engine::run() {
    RunInfo info;
    info.gpu = &gpu_;
    info.app = &app_;
    info.policy = policy_.name();
    info.execution = execution_->name();
    info.occupancy = occupancy_;
    for (auto* o : observers_) o->on_begin(info);
    for (std::size_t op = 0; op < graph_.ops.size(); ++op)
        if (unfinished_deps_[op] == 0) ready_ops_.push_back(op);
    start_ready_ops();
    // The dispatch pass is not a queued event: it runs once all events of its instant up to
    // the dispatch phase have been handled, exactly where a (time, dispatch-phase) event would.
    // No queued event has the dispatch phase (the last one), so that is before the first later event.
    while (!queue_.empty() || dispatch_pending_) {
        if (dispatch_pending_ && (queue_.empty() || queue_.top().time > dispatch_at_)) {
            now_ = dispatch_at_;
            run_dispatch_pass();
            continue;
        }
        // When more completions share the instant of a block's end (no completion channel),
        // they are handled here in one go, each releasing its slot at once: the pass waits
        // for them anyway, and after the first release a room change is pending, so no refill
        // would be tried. The calls below are their only calls (so they are inlined).
        bool same_instant = false;
        do {
            const Event e = queue_.pop();
            std::size_t at = e.payload();
            if (e.phase() == Phase::operation) {
                now_ = e.time;
                on_operation_event(at);
                continue;
            }
            if (e.phase() == Phase::completion) {
                if ((at & kGroup) != 0) {  // two members or more: a pass follows
                    end_group(static_cast<std::uint32_t>(at & ~std::size_t{kGroup}), e.time);
                    same_instant = true;
                    continue;
                }
                const Resident& r = resident_[at];
                if (r.launch == Resident::kFree || r.end != e.time) continue;  // superseded by a later set_end
                now_ = e.time;
                if (!on_block_end(at)) continue;
            } else {
                now_ = e.time;
                if (at == kChannelTake) at = take_swept_completion();
            }
            const int sm = static_cast<int>(at & sm_mask_);
            pool_.release(sm, static_cast<int>(at >> sm_bits_));
            if (!same_instant) {
                if (try_refill(sm)) continue;
                same_instant = completion_interval_ == 0 && queue_.next_is(now_, Phase::completion);
            }
            mark_room_changed(sm);
            if (!same_instant && !active_.empty()) request_dispatch(now_);
        } while (same_instant && queue_.next_is(now_, Phase::completion));
        if (same_instant && !active_.empty()) request_dispatch(now_);
    }
    for (std::size_t i = 0; i < launches_.size(); ++i) {
        const LaunchState& launch = *launches_[i];
        if (launch.repeated) continue;
        if (!launch.dispatcher || !launch.dispatcher->finished() || launch.completed != launch.dispatched)
            throw InputError(launch_label(i, *launch.launch) + " could never be placed: no SM allowed by its "
                             "stream's mask can hold one of its blocks");
    }
    const Time makespan = std::max({last_end_, last_memo_end_, last_op_end_});
    for (auto* o : observers_) o->on_end(makespan);
    return {makespan, units_done_};
}

}  // namespace gpusched::sim
