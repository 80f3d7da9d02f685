// Per-SM warp-scheduler contention: MVA closed queues per sub-partition, older blocks served first.
#include "gpusched/sim/execution/issue_queue.h"

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "gpusched/sim/execution/mva_memo.h"

namespace gpusched::sim {

namespace {

/// std::popcount inline: a baseline x86-64 build (no -mpopcnt) calls a library routine for it, and a
/// block's warp slots count several words' bits.
int count_bits(std::uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return static_cast<int>((x * 0x0101010101010101ULL) >> 56);
}

}  // namespace

double mva_throughput(int warps, double think, double service) {
    double queue = 0;
    double x = 0;
    for (int k = 1; k <= warps; ++k) {
        const double response = service * (1 + queue);
        x = k / (think + response);
        queue = x * response;
    }
    return x;
}

double age_order_step(int warps, double think, double service, double& used) {
    const double x = mva_throughput(warps, think, service / (1 - used));
    used = std::min(1.0, used + x * service);
    return x / warps;
}

IssueQueue::IssueQueue(int sub_partitions, int warp_slots, int block_slots, double service, int fair_warps,
                       bool incremental)
    : parts_(sub_partitions),
      warp_slots_(warp_slots),
      service_(service),
      fair_warps_(fair_warps),
      words_((warp_slots + 63) / 64),
      incremental_(incremental) {
    if (sub_partitions < 1 || warp_slots < 1 || block_slots < 1 || !(service > 0) || fair_warps < 0)
        throw std::logic_error("IssueQueue: sub-partitions, warp slots, block slots and service must be positive");
    const auto blocks = static_cast<std::size_t>(block_slots);
    const auto parts = static_cast<std::size_t>(parts_);
    used_.assign(static_cast<std::size_t>(words_), 0);
    warps_in_part_.assign(blocks * parts, 0);
    slot_bits_.assign(blocks * static_cast<std::size_t>(words_), 0);
    think_.assign(blocks, 0);
    rate_.assign(blocks, 0);
    part_rate_.assign(blocks * parts, 0);
    used_before_.assign(blocks * parts, 0);
    part_warps_.assign(parts, 0);
    part_fair_.assign(parts, 0);
    part_used_.assign(parts, 0);
    dirty_from_.assign(parts, kNone);
    dirty_used_.assign(parts, 0);
    order_.reserve(blocks);
    if (64 % parts_ == 0) {
        part_masks_.assign(parts, 0);
        for (int bit = 0; bit < 64; ++bit) part_masks_[static_cast<std::size_t>(bit % parts_)] |= std::uint64_t{1} << bit;
    }
}

void IssueQueue::mark(int p, std::size_t pos, double used) {
    const auto part = static_cast<std::size_t>(p);
    const int warps = part_warps_[part];
    // The fair regime depends on every block there: the sub-partition is recomputed whole.
    if (!incremental_ || (warps > 0 && warps <= fair_warps_) || part_fair_[part]) {
        pos = 0;
        used = 0;
    }
    if (pos < dirty_from_[part]) {  // an earlier change keeps its own start (its older blocks are unchanged)
        dirty_from_[part] = pos;
        dirty_used_[part] = used;
    }
}

void IssueQueue::add(int slot, int warps, double think) {
    const auto b = static_cast<std::size_t>(slot);
    int* parts = &warps_in_part_[b * static_cast<std::size_t>(parts_)];
    std::uint64_t* bits = &slot_bits_[b * static_cast<std::size_t>(words_)];
    std::fill(parts, parts + parts_, 0);
    std::fill(bits, bits + words_, 0);
    // Each warp takes the lowest free warp slot: a word's lowest free bits at a time, in word order.
    int last = parts_ - 1;
    int left = warps;
    for (int word = 0; word < words_ && left > 0; ++word) {
        const int base = word * 64;
        std::uint64_t free = ~used_[static_cast<std::size_t>(word)];
        if (warp_slots_ - base < 64) free &= (std::uint64_t{1} << (warp_slots_ - base)) - 1;
        if (free == 0) continue;
        std::uint64_t take = free;
        if (count_bits(free) > left) {  // the lowest `left` of them
            take = 0;
            for (int k = 0; k < left; ++k, free &= free - 1) take |= free & (~free + 1);
        }
        used_[static_cast<std::size_t>(word)] |= take;
        bits[word] |= take;
        left -= count_bits(take);
        last = (base + 63 - std::countl_zero(take)) % parts_;
        if (!part_masks_.empty()) {  // parts_ divides 64: slot w's sub-partition is (w mod 64) mod parts_
            for (int p = 0; p < parts_; ++p) parts[p] += count_bits(take & part_masks_[static_cast<std::size_t>(p)]);
        } else {
            for (; take != 0; take &= take - 1) ++parts[(base + std::countr_zero(take)) % parts_];
        }
    }
    for (; left > 0; --left) {  // more warps than slots: count them round-robin, hold no slot
        last = (last + 1) % parts_;
        ++parts[last];
    }
    think_[b] = std::max(0.0, think);
    rate_[b] = 0;
    const std::size_t position = order_.size();
    order_.push_back(slot);
    for (int p = 0; p < parts_; ++p) {
        if (parts[p] == 0) continue;
        part_warps_[static_cast<std::size_t>(p)] += parts[p];
        mark(p, position, part_used_[static_cast<std::size_t>(p)]);  // the youngest: after every older block
    }
    changed_ = true;
}

void IssueQueue::remove(int slot) {
    const auto b = static_cast<std::size_t>(slot);
    const auto it = std::find(order_.begin(), order_.end(), slot);
    if (it == order_.end()) throw std::logic_error("IssueQueue::remove of a block that is not resident");
    const auto position = static_cast<std::size_t>(it - order_.begin());
    order_.erase(it);
    for (int word = 0; word < words_; ++word)
        used_[static_cast<std::size_t>(word)] &= ~slot_bits_[b * static_cast<std::size_t>(words_) + static_cast<std::size_t>(word)];
    const auto parts = static_cast<std::size_t>(parts_);
    for (int p = 0; p < parts_; ++p) {
        const int k = warps_in_part_[b * parts + static_cast<std::size_t>(p)];
        if (k == 0) {  // it took nothing from this scheduler: no rate there moves, but the younger blocks move up
            std::size_t& from = dirty_from_[static_cast<std::size_t>(p)];
            if (from != kNone && from > position) --from;
            continue;
        }
        part_warps_[static_cast<std::size_t>(p)] -= k;
        mark(p, position, used_before_[b * parts + static_cast<std::size_t>(p)]);  // the younger ones move up
    }
    rate_[b] = 0;
    changed_ = true;
}

void IssueQueue::recompute_fair(int p) {
    const auto parts = static_cast<std::size_t>(parts_);
    const auto part = static_cast<std::size_t>(p);
    const int warps = part_warps_[part];  // on this scheduler, all blocks
    double think_sum = 0;
    for (int slot : order_)
        think_sum += warps_in_part_[static_cast<std::size_t>(slot) * parts + part] * think_[static_cast<std::size_t>(slot)];
    const double think = think_sum / warps;
    const double response = warps / mva_throughput(warps, think, service_) - think;
    for (int slot : order_) {
        const auto b = static_cast<std::size_t>(slot);
        if (warps_in_part_[b * parts + part] == 0) continue;
        part_rate_[b * parts + part] = 1 / (think_[b] + response);
    }
    part_fair_[part] = 1;
}

void IssueQueue::recompute_by_age(int p, std::size_t from, double used) {
    const auto parts = static_cast<std::size_t>(parts_);
    const auto part = static_cast<std::size_t>(p);
    for (std::size_t pos = from; pos < order_.size(); ++pos) {
        const auto b = static_cast<std::size_t>(order_[pos]);
        const int k = warps_in_part_[b * parts + part];
        if (k == 0) continue;
        used_before_[b * parts + part] = used;
        double per_warp = 0;
        if (used < 1)
            per_warp = memo_ != nullptr ? memo_->step(k, think_[b], service_, used)
                                        : age_order_step(k, think_[b], service_, used);
        part_rate_[b * parts + part] = per_warp;
    }
    part_used_[part] = used;
    part_fair_[part] = 0;
}

void IssueQueue::update() {
    if (!changed_) return;
    changed_ = false;
    const auto parts = static_cast<std::size_t>(parts_);
    for (int p = 0; p < parts_; ++p) {
        const auto part = static_cast<std::size_t>(p);
        if (dirty_from_[part] == kNone) continue;
        const int warps = part_warps_[part];
        if (warps > 0 && warps <= fair_warps_)  // one queue, no age order
            recompute_fair(p);
        else
            recompute_by_age(p, dirty_from_[part], dirty_used_[part]);
        dirty_from_[part] = kNone;
    }
    for (int slot : order_) {  // a block progresses at its slowest sub-partition's rate
        const auto b = static_cast<std::size_t>(slot);
        double rate = -1;  // -1: no sub-partition seen yet
        for (std::size_t part = 0; part < parts; ++part) {
            if (warps_in_part_[b * parts + part] == 0) continue;
            const double per_warp = part_rate_[b * parts + part];
            rate = rate < 0 ? per_warp : std::min(rate, per_warp);
        }
        rate_[b] = std::max(0.0, rate);
    }
}

}  // namespace gpusched::sim
