// The bandwidth share's virtual clock, ordered ends and completion events.
#include "gpusched/sim/bandwidth_share.h"

#include <algorithm>
#include <cmath>

namespace gpusched::sim {

namespace {
/// Ends are capped here (about 104 days): a nearly stalled block must not overflow Time.
constexpr double kLatestEnd = 9e18;
}  // namespace

BandwidthShare::BandwidthShare(int sm_count, int slots_per_sm, double bytes_per_ps)
    : slots_per_sm_(static_cast<std::size_t>(slots_per_sm)),
      bandwidth_(bytes_per_ps),
      blocks_(static_cast<std::size_t>(sm_count) * static_cast<std::size_t>(slots_per_sm)) {
    while (leaves_ < static_cast<std::size_t>(sm_count)) leaves_ *= 2;
    demand_.assign(2 * leaves_, 0.0);
}

std::uint32_t BandwidthShare::id_of(int sm, int slot) const {
    return static_cast<std::uint32_t>(static_cast<std::size_t>(sm) * slots_per_sm_ + static_cast<std::size_t>(slot));
}

double BandwidthShare::clock_at(Time t) const { return v0_ + phi_ * static_cast<double>(t - t0_); }

Time BandwidthShare::end_at(double v_end, Time now) const {
    double ps = std::ceil((v_end - v0_) / phi_);
    if (!(ps < kLatestEnd)) ps = kLatestEnd;  // also NaN
    const Time end = ps > 0 ? t0_ + static_cast<Time>(ps) : t0_;
    return std::max(end, now);
}

Time BandwidthShare::end_of(std::uint32_t id, Time now) const {
    const Block& b = blocks_[id];
    if (b.started) return end_at(b.v_end, now);
    return std::max(end_at(clock_at(b.start) + b.length, now), b.start);
}

void BandwidthShare::advance(Time now) {
    while (!pending_.empty() && pending_.begin()->first <= now) {
        const std::uint32_t id = pending_.begin()->second;
        pending_.erase(pending_.begin());
        Block& b = blocks_[id];
        pending_bound_.erase({b.bound, id});
        b.started = true;
        b.v_end = clock_at(b.start) + b.length;  // the expression end_of used while it waited
        by_end_.emplace(b.v_end, id);
    }
}

void BandwidthShare::add(int sm, int slot, Time now, Time start, double slots, double rate) {
    if (by_end_.empty() && pending_.empty()) {  // re-anchor: V = 0 at this dispatch (phi is 1 here)
        t0_ = now;
        v0_ = 0;
        phi_ = 1.0;
    }
    const std::uint32_t id = id_of(sm, slot);
    Block& b = blocks_[id];
    b = Block{};
    b.in_use = true;
    b.start = start;
    b.slots = slots;
    b.rate = rate;
    b.length = slots / rate;
    if (start > now) {
        b.bound = static_cast<double>(start) + b.length;
        pending_.emplace(start, id);
        pending_bound_.emplace(b.bound, id);
    } else {
        b.started = true;
        b.v_end = clock_at(start) + b.length;
        by_end_.emplace(b.v_end, id);
    }
    dirty_ = true;
}

void BandwidthShare::set_rate(int sm, int slot, Time now, double rate) {
    const std::uint32_t id = id_of(sm, slot);
    Block& b = blocks_[id];
    if (!b.in_use || rate == b.rate) return;
    if (!b.started) {
        pending_bound_.erase({b.bound, id});
        b.length = b.slots / rate;
        b.bound = static_cast<double>(b.start) + b.length;
        pending_bound_.emplace(b.bound, id);
    } else {
        const double v = clock_at(now);
        const double remaining = std::max(0.0, b.v_end - v) * b.rate;  // issue slots per warp left
        by_end_.erase({b.v_end, id});
        b.v_end = v + remaining / rate;
        by_end_.emplace(b.v_end, id);
    }
    b.rate = rate;
    dirty_ = true;
}

void BandwidthShare::remove(int sm, int slot) {
    const std::uint32_t id = id_of(sm, slot);
    Block& b = blocks_[id];
    if (!b.in_use) return;
    if (b.started) {
        by_end_.erase({b.v_end, id});
    } else {
        pending_.erase({b.start, id});
        pending_bound_.erase({b.bound, id});
    }
    if (b.armed) armed_.erase({b.armed_at, id});
    b = Block{};
    dirty_ = true;
}

void BandwidthShare::set_demand(int sm, double bytes_per_ps) {
    std::size_t i = leaves_ + static_cast<std::size_t>(sm);
    if (demand_[i] == bytes_per_ps) return;
    demand_[i] = bytes_per_ps;
    for (i /= 2; i >= 1; i /= 2) demand_[i] = demand_[2 * i] + demand_[2 * i + 1];
    dirty_ = true;
}

void BandwidthShare::arm(std::uint32_t id, Time end, CompletionSink& sink) {
    Block& b = blocks_[id];
    if (b.armed && b.armed_at == end) return;
    if (b.armed) armed_.erase({b.armed_at, id});
    b.armed = true;
    b.armed_at = end;
    armed_.emplace(end, id);
    sink.set_end(static_cast<int>(id / slots_per_sm_), static_cast<int>(id % slots_per_sm_), end);
}

void BandwidthShare::reschedule(Time now, CompletionSink& sink) {
    if (!dirty_) return;
    dirty_ = false;
    const double demand = demand_[1];
    const double phi = demand > bandwidth_ ? bandwidth_ / demand : 1.0;
    if (phi != phi_) {
        v0_ = clock_at(now);
        t0_ = now;
        phi_ = phi;
    }
    // The earliest end: the least v_end among started blocks; pending blocks in order of
    // start + length, which their end (start + length / phi) cannot beat (phi <= 1).
    bool found = false;
    std::uint32_t best = 0;
    Time best_end = 0;
    if (!by_end_.empty()) {
        found = true;
        best = by_end_.begin()->second;
        best_end = end_at(by_end_.begin()->first, now);
    }
    for (const auto& [bound, id] : pending_bound_) {
        if (found && bound >= static_cast<double>(best_end) + 1) break;  // + 1: room for rounding
        const Time end = end_of(id, now);
        if (!found || end < best_end) {
            found = true;
            best = id;
            best_end = end;
        }
    }
    if (!found) return;
    arm(best, best_end, sink);
    // Live events not after the earliest end must be exact; later ones cannot fire before the next call.
    scratch_.clear();
    for (auto it = armed_.begin(); it != armed_.end() && it->first <= best_end; ++it)
        if (it->second != best) scratch_.push_back(it->second);
    for (std::uint32_t id : scratch_) arm(id, end_of(id, now), sink);
}

}  // namespace gpusched::sim
