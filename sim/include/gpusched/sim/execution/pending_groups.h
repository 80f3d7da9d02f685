// PendingGroups: blocks waiting out their dispatch latency, grouped by equal (start, length), ordered by start + length.
#pragma once

#include <cstdint>
#include <vector>

#include "gpusched/sim/indexed_heap.h"
#include "gpusched/support/time.h"

namespace gpusched::sim {

/// The bandwidth share's blocks that are dispatched but not started (BandwidthShare). Blocks with
/// the same (start, length) end together, and ties go by id, so of such a group only the least id
/// can be the earliest end: the earliest-end search visits groups, not blocks. A dispatch pass of n
/// blocks forms a few groups (one per resident count on their SMs), so its n searches cost
/// O(n log n) instead of O(n^2).
///
/// Groups are ordered by (start + length, group number) in an IndexedHeap and found by their
/// (start, length) bits in an open-addressing table (linear probing, at most half full; deletion by
/// backward shift, so no tombstones). The table starts small and doubles when half full (a few
/// groups stay in cache); group numbers are reused last in first out for the same reason. Nothing
/// else allocates after construction but a group's member list growing past its earlier size.
///
///     absent --join--> member of a group --leave--> absent        (a group with no member is closed)
class PendingGroups {
public:
    /// Block ids are below `ids`.
    explicit PendingGroups(std::size_t ids);

    [[nodiscard]] bool empty() const { return heap_.empty(); }
    /// Block `id` (absent) waits to start at `start`, its work taking `length` at full speed; `bound` =
    /// start + length orders the groups.
    void join(std::uint32_t id, double bound, Time start, double length);
    /// Block `id` leaves its group (started or removed); nothing if absent.
    void leave(std::uint32_t id);
    /// Block `id` (present) moves to the group of its new (start, length) (its rate changed): leave() and
    /// join(), or, for a block alone in its group whose new key has none, the group rekeyed in place.
    void rejoin(std::uint32_t id, double bound, Time start, double length);

    /// f(bound, least id) for the group with the least bound, then for every group whose bound is
    /// below `limit()` (asked before each step, it may fall as f runs), in no particular order; a group
    /// may be offered twice.
    template <typename Limit, typename F>
    void for_each_below(Limit&& limit, F&& f) {
        if (heap_.empty()) return;
        const auto offer = [&](const IndexedHeap<double>::Entry& e) { f(e.key, least_member(e.id)); };
        offer(heap_.top());
        heap_.for_each_below(limit, offer);
    }

private:
    static constexpr std::uint32_t kNone = UINT32_MAX;
    struct Group {
        double bound = 0;
        Time start = 0;
        double length = 0;
        std::vector<std::uint32_t> members;
        std::uint32_t least = kNone;  ///< the least member, kNone: to be found again
        std::size_t slot = 0;         ///< its entry in table_
    };
    [[nodiscard]] std::uint32_t least_member(std::uint32_t group);
    /// The table slot where (start, length) is, or the empty slot where it would go, probing from `from`
    /// (its home).
    [[nodiscard]] std::size_t slot_of(Time start, double length, std::size_t from) const;
    [[nodiscard]] static std::uint64_t hash(Time start, double length);
    void erase_slot(std::size_t slot);
    /// Doubles the table (every entry placed again) when one more group would fill it past half.
    void reserve_one();

    std::vector<Group> groups_;
    std::vector<std::uint32_t> free_;       ///< closed group numbers, reused last in first out
    std::vector<std::uint32_t> group_of_;   ///< per block id: its group, kNone when absent
    std::vector<std::uint32_t> position_;   ///< per block id: its index in its group's members
    IndexedHeap<double> heap_;              ///< open groups by (bound, group number)
    struct TableEntry {
        Time start = 0;
        double length = 0;
        std::uint32_t group = kNone;  ///< kNone: empty
        std::uint64_t hash = 0;       ///< hash(start, length): its home is hash & mask_
    };
    std::vector<TableEntry> table_;         ///< open groups by (start, length), the keys kept in place
    std::size_t mask_ = 0;                  ///< table_.size() - 1 (a power of two)
    std::size_t open_ = 0;                  ///< open groups
};

}  // namespace gpusched::sim
