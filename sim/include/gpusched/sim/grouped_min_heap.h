// GroupedMinHeap: the least (key, id) of ids in fixed groups (an SM's block slots), a group's minimum kept per group.
#pragma once

#include <cstdint>
#include <vector>

#include "gpusched/sim/indexed_heap.h"

namespace gpusched::sim {

/// Ids 0 .. groups x per_group - 1, id = group x per_group + member. top() is the least (key, id)
/// of the ids present, exactly as IndexedHeap<double> orders them: a heap over the groups keyed by
/// (group minimum, group) gives it, because a group's ids all lie below the next group's.
///
/// Many keys of one group change together (an SM's blocks get new rates when one of them starts
/// or ends), so a change costs no heap step: a key that beats the group's minimum replaces it
/// (the group's heap key is refreshed at the next top(), once however often it moved); the
/// minimum itself rising or leaving marks the group for a rescan of its members (per_group keys),
/// also done once, by the next top().
class GroupedMinHeap {
public:
    struct Entry {
        double key;
        std::uint32_t id;
    };

    GroupedMinHeap(std::size_t groups, std::size_t per_group)
        : per_group_(per_group),
          key_(groups * per_group, 0.0),
          present_(groups * per_group, 0),
          count_(groups, 0),
          min_id_(groups, kNone),
          stale_(groups, 0),
          groups_(groups) {
        stale_list_.reserve(groups);
    }

    [[nodiscard]] bool empty() const { return size_ == 0; }
    [[nodiscard]] bool contains(std::uint32_t id) const { return present_[id] != 0; }

    /// Adds `id` with `key`, or gives it a new key.
    void update(double key, std::uint32_t id) {
        const std::size_t g = id / per_group_;
        if (!present_[id]) {
            present_[id] = 1;
            ++count_[g];
            ++size_;
        }
        const double old = key_[id];
        key_[id] = key;
        if (stale_[g] == kRescan) return;  // rescanned before the next top() anyway
        const std::uint32_t m = min_id_[g];
        if (m == id && key > old) {
            mark(g, kRescan);  // the minimum rose: another member may be lower now
        } else if (m == id || m == kNone || less(key, id, key_[m], m)) {
            min_id_[g] = id;
            mark(g, kRequeue);
        }
    }
    void insert(double key, std::uint32_t id) { update(key, id); }

    /// Removes `id` if present.
    void erase(std::uint32_t id) {
        if (!present_[id]) return;
        present_[id] = 0;
        const std::size_t g = id / per_group_;
        --count_[g];
        --size_;
        if (min_id_[g] == id) mark(g, kRescan);
    }

    /// The least (key, id); must not be empty.
    [[nodiscard]] Entry top() {
        refresh();
        const std::uint32_t g = groups_.top().id;
        return {key_[min_id_[g]], min_id_[g]};
    }

private:
    static constexpr std::uint32_t kNone = ~std::uint32_t{0};
    static bool less(double a, std::uint32_t ia, double b, std::uint32_t ib) { return a < b || (a == b && ia < ib); }

    /// kRequeue: min_id_ is right, the group heap's key is not; kRescan: min_id_ may be wrong too.
    static constexpr std::uint8_t kCurrent = 0, kRequeue = 1, kRescan = 2;

    void mark(std::size_t g, std::uint8_t state) {
        if (stale_[g] == kCurrent) stale_list_.push_back(static_cast<std::uint32_t>(g));
        if (state > stale_[g]) stale_[g] = state;
    }
    void refresh() {
        for (const std::uint32_t g : stale_list_) {
            if (stale_[g] == kRescan) rescan(g);
            else groups_.update(key_[min_id_[g]], g);
            stale_[g] = kCurrent;
        }
        stale_list_.clear();
    }
    void rescan(std::uint32_t g) {
        std::uint32_t best = kNone;
        if (count_[g] > 0) {
            const auto first = static_cast<std::uint32_t>(g * per_group_);
            for (std::uint32_t id = first; id < first + per_group_; ++id)
                if (present_[id] && (best == kNone || key_[id] < key_[best])) best = id;  // ties: the lower id
        }
        min_id_[g] = best;
        if (best == kNone) groups_.erase(g);
        else groups_.update(key_[best], g);
    }

    std::size_t per_group_;
    std::vector<double> key_;
    std::vector<std::uint8_t> present_;
    std::vector<std::uint32_t> count_;
    std::vector<std::uint32_t> min_id_;  ///< per group: its least (key, id), or kNone (valid unless stale)
    std::vector<std::uint8_t> stale_;    ///< per group: kCurrent, kRequeue or kRescan
    std::vector<std::uint32_t> stale_list_;
    std::size_t size_ = 0;
    IndexedHeap<double> groups_;  ///< groups with a member, by (their minimum's key, group)
};

}  // namespace gpusched::sim
