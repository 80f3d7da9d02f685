// Pending blocks grouped by equal (start, length): joins, leaves and each group's least id.
#include "gpusched/sim/execution/pending_groups.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace gpusched::sim {

PendingGroups::PendingGroups(std::size_t ids)
    : groups_(ids), group_of_(ids, kNone), position_(ids, 0), heap_(ids) {
    free_.reserve(ids);
    for (std::size_t g = ids; g > 0; --g) free_.push_back(static_cast<std::uint32_t>(g - 1));
    table_.assign(16, TableEntry{});
    mask_ = table_.size() - 1;
}

std::uint64_t PendingGroups::hash(Time start, double length) {
    // splitmix64's finaliser over both keys' bits (memcpy, not std::bit_cast: the lab's emscripten
    // libc++ has none).
    std::uint64_t bits = 0;
    static_assert(sizeof bits == sizeof length);
    std::memcpy(&bits, &length, sizeof bits);
    std::uint64_t x = static_cast<std::uint64_t>(start) * 0x9E3779B97F4A7C15ull ^ bits;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

void PendingGroups::reserve_one() {
    if (2 * (open_ + 1) <= table_.size()) return;
    std::vector<TableEntry> old(2 * table_.size(), TableEntry{});
    old.swap(table_);
    mask_ = table_.size() - 1;
    for (const TableEntry& e : old) {
        if (e.group == kNone) continue;
        std::size_t i = e.hash & mask_;
        while (table_[i].group != kNone) i = (i + 1) & mask_;
        table_[i] = e;
        groups_[e.group].slot = i;
    }
}

std::size_t PendingGroups::slot_of(Time start, double length, std::size_t from) const {
    for (std::size_t i = from;; i = (i + 1) & mask_) {
        const TableEntry& e = table_[i];
        if (e.group == kNone || (e.start == start && e.length == length)) return i;
    }
}

void PendingGroups::erase_slot(std::size_t slot) {
    // Backward shift: later entries of the probe run move up into the hole unless their home lies
    // cyclically in (hole, entry].
    std::size_t hole = slot;
    table_[hole].group = kNone;
    for (std::size_t j = (hole + 1) & mask_; table_[j].group != kNone; j = (j + 1) & mask_) {
        const std::size_t k = table_[j].hash & mask_;
        const bool stays = hole <= j ? (hole < k && k <= j) : (hole < k || k <= j);
        if (stays) continue;
        table_[hole] = table_[j];
        groups_[table_[hole].group].slot = hole;
        table_[j].group = kNone;
        hole = j;
    }
}

void PendingGroups::join(std::uint32_t id, double bound, Time start, double length) {
    if (!(bound == bound) || !(length == length))  // NaN would break the heap's order
        throw std::logic_error("PendingGroups: a pending block's length is not a number");
    if (group_of_[id] != kNone) throw std::logic_error("PendingGroups: a block joined twice");
    const std::uint64_t h = hash(start, length);
    std::size_t slot = slot_of(start, length, h & mask_);
    std::uint32_t group = table_[slot].group;
    if (group == kNone) {
        reserve_one();
        slot = slot_of(start, length, h & mask_);
        group = free_.back();  // ids >= open groups: one is always free for an absent block
        free_.pop_back();
        ++open_;
        Group& g = groups_[group];
        g.bound = bound;
        g.start = start;
        g.length = length;
        g.members.clear();
        g.least = kNone;
        heap_.insert(bound, group);
        table_[slot] = TableEntry{start, length, group, h};
        g.slot = slot;
    }
    Group& g = groups_[group];
    group_of_[id] = group;
    position_[id] = static_cast<std::uint32_t>(g.members.size());
    g.members.push_back(id);
    if (g.members.size() == 1 || (g.least != kNone && id < g.least)) g.least = id;
}

void PendingGroups::leave(std::uint32_t id) {
    const std::uint32_t group = group_of_[id];
    if (group == kNone) return;
    group_of_[id] = kNone;
    Group& g = groups_[group];
    const std::uint32_t last = g.members.back();
    g.members[position_[id]] = last;
    position_[last] = position_[id];
    g.members.pop_back();
    if (g.least == id) g.least = kNone;
    if (g.members.empty()) {
        heap_.erase(group);
        erase_slot(g.slot);
        free_.push_back(group);
        --open_;
    }
}

void PendingGroups::rejoin(std::uint32_t id, double bound, Time start, double length) {
    const std::uint32_t group = group_of_[id];
    if (group == kNone || groups_[group].members.size() != 1 || !(bound == bound) || !(length == length)) {
        leave(id);
        join(id, bound, start, length);
        return;
    }
    const std::uint64_t h = hash(start, length);
    if (table_[slot_of(start, length, h & mask_)].group != kNone) {  // another group has the new key: join it
        leave(id);
        join(id, bound, start, length);
        return;
    }
    Group& g = groups_[group];
    erase_slot(g.slot);  // may open an earlier empty slot on the new key's probe run: search again
    const std::size_t free_slot = slot_of(start, length, h & mask_);
    g.bound = bound;
    g.start = start;
    g.length = length;
    table_[free_slot] = TableEntry{start, length, group, h};
    g.slot = free_slot;
    heap_.update(bound, group);
}

std::uint32_t PendingGroups::least_member(std::uint32_t group) {
    Group& g = groups_[group];
    if (g.least == kNone) g.least = *std::min_element(g.members.begin(), g.members.end());
    return g.least;
}

}  // namespace gpusched::sim
