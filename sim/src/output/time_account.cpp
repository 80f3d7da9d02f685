// TimeAccountCollector: each SM's time cut into pieces of constant state, each piece split exactly among the categories.
#include "gpusched/sim/output/time_account.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "gpusched/sim/engine/spec_time.h"
#include "gpusched/support/checked_time.h"
#include "gpusched/workloads/gpu_bound_work.h"

namespace gpusched::sim {

namespace {

constexpr std::array<const char*, kTimeCategories> kNames = {
    "active warps", "inactive warps", "launch overhead", "dispatch latency", "tail", "occupancy limit", "waits",
    "host-bound"};
constexpr std::array<const char*, kTimeCategories> kKeys = {
    "active_warps", "inactive_warps", "launch_overhead", "dispatch_latency", "tail", "occupancy_limit", "waits",
    "host_bound"};

std::string account_name() { return "the SM-time account (SMs x simulated time)"; }

}  // namespace

const char* time_category_name(TimeCategory category) { return kNames.at(static_cast<std::size_t>(category)); }
const char* time_category_key(TimeCategory category) { return kKeys.at(static_cast<std::size_t>(category)); }

Time TimeAccount::total() const {
    return checked_time_product(makespan, static_cast<std::uint64_t>(std::max(sm_count, 0)), account_name);
}

Time TimeAccount::sum() const {
    Time s = 0;
    for (const Time t : ps) s = checked_time_sum(s, t, account_name);
    return s;
}

void TimeAccountCollector::on_begin(const RunInfo& info) {
    app_ = info.app;
    account_ = TimeAccount{};
    const int sms = info.gpu ? info.gpu->sm_count : 0;
    account_.sm_count = sms;
    max_warps_ = info.gpu ? info.gpu->max_warps_per_sm : 0;
    launch_overhead_ = info.gpu ? overhead_ps(info.gpu->kernel_launch_ns) : 0;
    host_calls_ = app_ && app_->host_issue == workloads::HostIssue::calls;
    works_.clear();
    if (app_ && info.gpu) works_ = workloads::works_as_run(app_->launches, *info.gpu, info.execution);
    sms_.assign(static_cast<std::size_t>(std::max(sms, 0)), SmState{});
    waiting_ = draining_ = 0;
    // Classes of SMs alike in which masked streams allow them.
    stream_classes_.clear();
    std::map<std::vector<bool>, std::size_t> class_of;
    std::vector<const workloads::StreamConfig*> masked;
    if (app_)
        for (const auto& stream : app_->streams)
            if (!stream.sm_mask.empty()) masked.push_back(&stream);
    for (std::size_t sm = 0; sm < sms_.size(); ++sm) {
        std::vector<bool> allowed;
        for (const auto* stream : masked)
            allowed.push_back(std::find(stream->sm_mask.begin(), stream->sm_mask.end(), static_cast<int>(sm)) !=
                              stream->sm_mask.end());
        const auto [it, added] = class_of.try_emplace(allowed, class_of.size());
        sms_[sm].group = it->second;
        if (added)
            for (std::size_t m = 0; m < masked.size(); ++m)
                if (allowed[m]) stream_classes_[masked[m]->id].push_back(it->second);
    }
    for (const auto* stream : masked) stream_classes_.try_emplace(stream->id);  // a mask of no SM here
    const std::size_t classes = std::max<std::size_t>(class_of.size(), 1);
    class_waiting_.assign(classes, 0);
    timelines_.assign(classes, {{Time{0}, GpuState::gap_open}});
    const std::size_t launches = app_ ? app_->launches.size() : 0;
    units_.assign(launches, 0);
    dispatched_.assign(launches, 0);
    phase_.assign(launches, 0);
    warps_per_block_.assign(launches, 0);
    for (std::size_t i = 0; i < launches; ++i) {
        const workloads::KernelLaunch& launch = app_->launches[i];
        const int wpb = i < info.occupancy.size() ? info.occupancy[i].warps_per_block : 0;
        warps_per_block_[i] = wpb;
        if (!warp_units_) {
            units_[i] = launch.blocks();
            continue;
        }
        for (std::uint64_t b = 0; b < launch.blocks(); ++b)  // the warp-level policy dispatches each active warp
            units_[i] += static_cast<std::uint64_t>(std::clamp(launch.work->active_warps(b, wpb), 0, wpb));
    }
}

void TimeAccountCollector::unit_warps(const BlockRecord& block, int& warps, int& active) const {
    if (warp_units_) {
        warps = active = 1;
        return;
    }
    warps = warps_per_block_.at(block.launch);
    const auto& work = block.launch < works_.size() ? works_[block.launch] : app_->launches.at(block.launch).work;
    active = work ? std::clamp(work->active_warps(block.block, warps), 0, warps) : warps;
}

void TimeAccountCollector::close_gap(Time when, bool launch_follows) {
    for (auto& timeline : timelines_) close_gap_of(timeline, when, launch_follows);
}

void TimeAccountCollector::close_gap_of(std::vector<std::pair<Time, GpuState>>& timeline, Time when,
                                        bool launch_follows) const {
    auto& [since, state] = timeline.back();
    const GpuState before = host_calls_ && launch_follows ? GpuState::gap_host : GpuState::gap_waits;
    if (!launch_follows || launch_overhead_ == 0) {
        state = before;
        return;
    }
    const Time overhead_from = when > since + launch_overhead_ ? when - launch_overhead_ : since;
    if (overhead_from > since) {
        state = before;
        timeline.emplace_back(overhead_from, GpuState::gap_overhead);
    } else {
        state = GpuState::gap_overhead;
    }
}

void TimeAccountCollector::count_waiting(std::size_t launch, int delta) {
    const auto masked = stream_classes_.find(app_->launches.at(launch).stream);
    if (masked == stream_classes_.end()) {
        for (auto& n : class_waiting_) n = static_cast<std::size_t>(static_cast<long long>(n) + delta);
        return;
    }
    for (const std::size_t c : masked->second)
        class_waiting_[c] = static_cast<std::size_t>(static_cast<long long>(class_waiting_[c]) + delta);
}

void TimeAccountCollector::set_gpu_state(Time when) {
    for (std::size_t c = 0; c < timelines_.size(); ++c) {
        auto& timeline = timelines_[c];
        const GpuState now = class_waiting_[c] > 0                 ? GpuState::waiting
                             : waiting_ > 0 || draining_ > 0 ? GpuState::draining
                                                             : GpuState::gap_open;
        if (timeline.back().second == now) continue;
        if (timeline.back().first != when) {
            timeline.emplace_back(when, now);
            continue;
        }
        timeline.back().second = now;  // a change at the same instant replaces the last one
        if (timeline.size() > 1 && timeline[timeline.size() - 2].second == now) timeline.pop_back();
    }
}

void TimeAccountCollector::on_kernel_ready(std::size_t launch, Time when) {
    if (units_.at(launch) == 0) return;
    if (waiting_ == 0 && draining_ == 0) close_gap(when, true);
    ++waiting_;
    count_waiting(launch, +1);
    phase_[launch] = 1;
    set_gpu_state(when);
}

void TimeAccountCollector::on_block_dispatched(const BlockRecord& block) {
    const auto sm = static_cast<std::size_t>(block.sm);
    advance(sm, block.dispatch);
    Pending p{block.start, 0, 0};
    unit_warps(block, p.warps, p.active);
    SmState& s = sms_.at(sm);
    s.pending.push_back(p);
    s.pending_warps += p.warps;
    advance(sm, block.dispatch);  // a block that starts as it is dispatched
    if (++dispatched_.at(block.launch) == units_[block.launch] && phase_[block.launch] == 1) {
        phase_[block.launch] = 2;
        --waiting_;
        count_waiting(block.launch, -1);
        ++draining_;
        set_gpu_state(block.dispatch);
    }
}

void TimeAccountCollector::on_block_completed(const BlockRecord& block) {
    const auto sm = static_cast<std::size_t>(block.sm);
    advance(sm, block.end);
    int warps = 0, active = 0;
    unit_warps(block, warps, active);
    SmState& s = sms_.at(sm);
    if (warps > s.warps || active > s.active) throw std::logic_error("TimeAccountCollector: a block ends that never started");
    s.warps -= warps;
    s.active -= active;
}

void TimeAccountCollector::on_kernel_completed(std::size_t launch, Time, Time end) {
    if (phase_.at(launch) == 2) --draining_;
    if (phase_[launch] == 1) {
        --waiting_;
        count_waiting(launch, -1);
    }
    phase_[launch] = 3;
    set_gpu_state(end);
}

void TimeAccountCollector::advance(std::size_t sm, Time to) {
    SmState& s = sms_.at(sm);
    const auto& timeline = timelines_.at(s.group);
    s.cursor = std::min(s.cursor, timeline.size() - 1);  // entries of this instant may have merged
    const auto start_due = [&s] {
        for (std::size_t i = 0; i < s.pending.size();) {
            if (s.pending[i].start > s.at) {
                ++i;
                continue;
            }
            s.warps += s.pending[i].warps;
            s.active += s.pending[i].active;
            s.pending_warps -= s.pending[i].warps;
            s.pending.erase(s.pending.begin() + static_cast<std::ptrdiff_t>(i));
        }
    };
    start_due();
    while (s.at < to) {
        Time next = to;
        for (const Pending& p : s.pending) next = std::min(next, p.start);
        while (s.cursor + 1 < timeline.size() && timeline[s.cursor + 1].first <= s.at) ++s.cursor;
        if (s.cursor + 1 < timeline.size()) next = std::min(next, timeline[s.cursor + 1].first);
        account_piece(s, next - s.at, timeline[s.cursor].second);
        s.at = next;
        start_due();
    }
}

void TimeAccountCollector::account_piece(const SmState& s, Time length, GpuState gpu) {
    if (length == 0) return;
    const auto add = [this](TimeCategory c, Time t) {
        Time& slot = account_.ps[static_cast<std::size_t>(c)];
        slot = checked_time_sum(slot, t, account_name);
    };
    if (s.warps == 0 && s.pending_warps == 0) {
        switch (gpu) {
            case GpuState::waiting: add(TimeCategory::dispatch_latency, length); return;
            case GpuState::draining: add(TimeCategory::tail, length); return;
            case GpuState::gap_overhead: add(TimeCategory::launch_overhead, length); return;
            case GpuState::gap_host: add(TimeCategory::host_bound, length); return;
            case GpuState::gap_open:
            case GpuState::gap_waits: add(TimeCategory::waits, length); return;
        }
    }
    if (s.warps == 0) {
        add(TimeCategory::dispatch_latency, length);
        return;
    }
    // floor(length x k / slots) without overflow: k <= slots.
    const auto slots = static_cast<Time>(std::max(max_warps_, s.warps + s.pending_warps));
    const auto part = [&](int k) {
        const auto n = static_cast<Time>(k);
        return length / slots * n + length % slots * n / slots;
    };
    const Time active = part(s.active), busy = part(s.warps), held = part(s.warps + s.pending_warps);
    add(TimeCategory::active_warps, active);
    add(TimeCategory::inactive_warps, busy - active);
    add(TimeCategory::dispatch_latency, held - busy);
    add(gpu == GpuState::waiting ? TimeCategory::occupancy_limit : TimeCategory::tail, length - held);
}

void TimeAccountCollector::on_end(Time makespan) {
    if (timelines_.front().back().second == GpuState::gap_open) close_gap(makespan, false);
    account_.makespan = makespan;
    for (std::size_t sm = 0; sm < sms_.size(); ++sm) advance(sm, makespan);
    if (account_.sum() != account_.total())
        throw std::logic_error("TimeAccountCollector: the categories do not add up to the SM-time");
}

namespace {

/// ps as microseconds with three decimals (rounded half up).
std::string us3(Time ps) {
    const Time thousandths = ps / 1000000 * 1000 + (ps % 1000000 * 1000 + 500000) / 1000000;
    char buf[40];
    std::snprintf(buf, sizeof buf, "%llu.%03llu", static_cast<unsigned long long>(thousandths / 1000),
                  static_cast<unsigned long long>(thousandths % 1000));
    return buf;
}

/// part / whole in percent with one decimal (rounded half up); "0.0" when whole is 0.
std::string percent1(Time part, Time whole) {
    if (whole == 0) return "0.0";
    const auto tenths = static_cast<unsigned long long>(
        (static_cast<long double>(part) * 1000.0L / static_cast<long double>(whole)) + 0.5L);
    return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10);
}

}  // namespace

void write_time_account_text(std::ostream& out, const TimeAccount& a) {
    const Time total = a.total();
    out << "where the time went (SM-time = " << a.sm_count << " SMs x " << us3(a.makespan) << " us = " << us3(total)
        << " SM-us)\n";
    std::vector<std::array<std::string, 3>> rows;
    const auto row = [&](const std::string& name, Time t) { rows.push_back({name, us3(t), percent1(t, total)}); };
    row("  busy", a.busy());
    for (const TimeCategory c : {TimeCategory::active_warps, TimeCategory::inactive_warps})
        row(std::string("    ") + time_category_name(c), a.at(c));
    row("  idle", a.idle());
    for (const TimeCategory c : {TimeCategory::launch_overhead, TimeCategory::dispatch_latency, TimeCategory::tail,
                                 TimeCategory::occupancy_limit, TimeCategory::waits, TimeCategory::host_bound})
        row(std::string("    ") + time_category_name(c), a.at(c));
    std::size_t name_width = 0, us_width = 0, percent_width = 0;
    for (const auto& r : rows) {
        name_width = std::max(name_width, r[0].size());
        us_width = std::max(us_width, r[1].size());
        percent_width = std::max(percent_width, r[2].size());
    }
    for (const auto& r : rows)
        out << r[0] << std::string(name_width - r[0].size() + 2, ' ') << std::string(us_width - r[1].size(), ' ') << r[1]
            << " SM-us  " << std::string(percent_width - r[2].size(), ' ') << r[2] << "%\n";
}

std::string time_account_json(const TimeAccount& a) {
    nlohmann::ordered_json j;
    j["sm_count"] = a.sm_count;
    j["makespan_ps"] = a.makespan;
    j["total_ps"] = a.total();
    j["busy_ps"] = a.busy();
    j["idle_ps"] = a.idle();
    for (std::size_t c = 0; c < kTimeCategories; ++c)
        j[std::string(kKeys[c]) + "_ps"] = a.ps[c];
    return j.dump();
}

}  // namespace gpusched::sim
