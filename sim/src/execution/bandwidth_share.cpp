// The bandwidth share's virtual clock, ordered ends and completion events.
#include "gpusched/sim/execution/bandwidth_share.h"

#include <algorithm>
#include <cmath>

#include "gpusched/support/checked_time.h"

namespace gpusched::sim {

namespace {
/// A nearly stalled block's end is capped at kTimeLimit (2^63 ps): past the range of simulated
/// time, which the engine reports if nothing revises the end first.
constexpr double kLatestEnd = 9223372036854775808.0;  // 2^63
}  // namespace

BandwidthShare::BandwidthShare(int sm_count, int slots_per_sm, double bytes_per_ps, double l2_bytes_per_ps,
                               bool prune_by_length)
    : slots_per_sm_(static_cast<std::size_t>(slots_per_sm)),
      bandwidth_(bytes_per_ps),
      l2_bandwidth_(l2_bytes_per_ps),
      blocks_(static_cast<std::size_t>(sm_count) * static_cast<std::size_t>(slots_per_sm)),
      by_end_(static_cast<std::size_t>(sm_count), static_cast<std::size_t>(slots_per_sm)),
      pending_(blocks_.size()),
      pending_groups_(blocks_.size()),
      armed_(blocks_.size()),
      prune_by_length_(prune_by_length) {
    while (leaves_ < static_cast<std::size_t>(sm_count)) leaves_ *= 2;
    demand_.assign(2 * leaves_, 0.0);
    l2_demand_.assign(2 * leaves_, 0.0);
}

std::uint32_t BandwidthShare::id_of(int sm, int slot) const {
    return static_cast<std::uint32_t>(static_cast<std::size_t>(sm) * slots_per_sm_ + static_cast<std::size_t>(slot));
}

double BandwidthShare::clock_at(Time t) const { return v0_ + phi_ * static_cast<double>(t - t0_); }

Time BandwidthShare::end_at(double v_end, Time now) const {
    double ps = std::ceil((v_end - v0_) / phi_);
    if (!(ps < kLatestEnd)) ps = kLatestEnd;  // also NaN
    const Time end = ps > 0 ? std::min(t0_ + static_cast<Time>(ps), kTimeLimit) : t0_;
    return std::max(end, now);
}

Time BandwidthShare::end_of(std::uint32_t id, Time now) const {
    const Block& b = blocks_[id];
    if (b.started) return end_at(b.v_end, now);
    return std::max(end_at(clock_at(b.start) + b.length, now), b.start);
}

void BandwidthShare::advance(Time now) {
    while (!pending_.empty() && pending_.top().key <= now) {
        const std::uint32_t id = pending_.pop().id;
        Block& b = blocks_[id];
        pending_groups_.leave(id);
        b.started = true;
        b.v_end = clock_at(b.start) + b.length;  // the expression end_of used while it waited
        by_end_.insert(b.v_end, id);
    }
    if (pending_.empty()) least_pending_length_ = kNoLength;
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
        pending_.insert(start, id);
        pending_groups_.join(id, b.bound, b.start, b.length);
        least_pending_length_ = std::min(least_pending_length_, b.length);
    } else {
        b.started = true;
        b.v_end = clock_at(start) + b.length;
        by_end_.insert(b.v_end, id);
    }
    dirty_ = true;
}

void BandwidthShare::set_rate(int sm, int slot, Time now, double rate) {
    const std::uint32_t id = id_of(sm, slot);
    Block& b = blocks_[id];
    if (!b.in_use || rate == b.rate) return;
    if (!b.started) {
        b.length = b.slots / rate;
        b.bound = static_cast<double>(b.start) + b.length;
        pending_groups_.rejoin(id, b.bound, b.start, b.length);
        least_pending_length_ = std::min(least_pending_length_, b.length);
    } else {
        const double v = clock_at(now);
        const double remaining = std::max(0.0, b.v_end - v) * b.rate;  // issue slots per warp left
        b.v_end = v + remaining / rate;
        by_end_.update(b.v_end, id);
    }
    b.rate = rate;
    dirty_ = true;
}

void BandwidthShare::remove(int sm, int slot) {
    const std::uint32_t id = id_of(sm, slot);
    Block& b = blocks_[id];
    if (!b.in_use) return;
    by_end_.erase(id);
    pending_groups_.leave(id);
    pending_.erase(id);
    if (pending_.empty()) least_pending_length_ = kNoLength;
    armed_.erase(id);
    b = Block{};
    dirty_ = true;
}

bool BandwidthShare::set_leaf(std::vector<double>& tree, std::size_t leaf, double value) {
    if (tree[leaf] == value) return false;
    tree[leaf] = value;
    // Each parent is its two children's sum; the child just written is carried in a register, not read
    // back from the store (x + y == y + x exactly, so the sums are the same bits).
    double sum = value;
    for (std::size_t i = leaf; i > 1; i /= 2) {
        sum += tree[i ^ 1];
        tree[i / 2] = sum;
    }
    return true;
}

void BandwidthShare::set_demand(int sm, double bytes_per_ps, double l2_bytes_per_ps) {
    const std::size_t leaf = leaves_ + static_cast<std::size_t>(sm);
    if (bandwidth_ > 0 && set_leaf(demand_, leaf, bytes_per_ps)) dirty_ = true;
    if (l2_bandwidth_ > 0 && set_leaf(l2_demand_, leaf, l2_bytes_per_ps)) dirty_ = true;
}

void BandwidthShare::arm(std::uint32_t id, Time end, CompletionSink& sink) {
    Block& b = blocks_[id];
    if (armed_.contains(id) && b.armed_at == end) return;
    b.armed_at = end;
    armed_.update(end, id);
    sink.set_end(static_cast<int>(id / slots_per_sm_), static_cast<int>(id % slots_per_sm_), end);
}

void BandwidthShare::reschedule(Time now, CompletionSink& sink) {
    if (!dirty_) return;
    dirty_ = false;
    const double demand = demand_[1];
    double phi = bandwidth_ > 0 && demand > bandwidth_ ? bandwidth_ / demand : 1.0;
    if (l2_bandwidth_ > 0 && l2_demand_[1] > l2_bandwidth_) phi = std::min(phi, l2_bandwidth_ / l2_demand_[1]);
    if (phi != phi_) {
        v0_ = clock_at(now);
        t0_ = now;
        phi_ = phi;
    }
    // The earliest end: the least v_end among started blocks, else (ties included) the pending
    // block with the least (end, start + length, id). A pending block's end (start + length /
    // phi) cannot beat its start + length (phi <= 1), so only those whose bound is below the
    // best end so far (+ 1: room for rounding) can win.
    bool found = false;
    bool from_pending = false;
    std::uint32_t best = 0;
    Time best_end = 0;
    double best_bound = 0;
    if (!by_end_.empty()) {
        found = true;
        const GroupedMinHeap::Entry first = by_end_.top();
        best = first.id;
        best_end = end_at(first.key, now);
    }
    // A pending group's blocks share their end (it depends only on their (start, length)); its least
    // id is its candidate, as ties go by id.
    const auto consider = [&](double bound, std::uint32_t id) {
        const Time end = end_of(id, now);
        const bool tie_wins = from_pending && end == best_end && (bound < best_bound || (bound == best_bound && id < best));
        if (!found || end < best_end || tie_wins) {
            found = true;
            from_pending = true;
            best = id;
            best_end = end;
            best_bound = bound;
        }
    };
    if (!pending_groups_.empty()) {
        // end >= bound + l_min (1/phi - 1); shaved by 1e-9 so that rounding never prunes a winner.
        const double extra = prune_by_length_ ? least_pending_length_ * (1.0 / phi_ - 1.0) * (1.0 - 1e-9) : 0.0;
        pending_groups_.for_each_below([&] { return static_cast<double>(best_end) + 1 - extra; }, consider);
    }
    if (!found) return;
    arm(best, best_end, sink);
    // Live events not after the earliest end must be exact (re-armed in (time, id) order); later
    // ones cannot fire before the next call.
    scratch_.clear();
    armed_.for_each_below([&] { return best_end + 1; }, [&](const IndexedHeap<Time>::Entry& e) {
        // An event already at the block's end is left as it is (arm() would do nothing): only the
        // ones that move are sorted and re-armed.
        if (e.id != best && end_of(e.id, now) != e.key) scratch_.push_back(e);
    });
    std::sort(scratch_.begin(), scratch_.end(), [](const auto& a, const auto& b) {
        return a.key < b.key || (a.key == b.key && a.id < b.id);
    });
    for (const auto& e : scratch_) arm(e.id, end_of(e.id, now), sink);
}

}  // namespace gpusched::sim
