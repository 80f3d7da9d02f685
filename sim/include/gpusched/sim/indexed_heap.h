// IndexedHeap: a binary min-heap of (key, id) pairs with erase by id and no allocation after construction.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

namespace gpusched::sim {

/// Entries are ordered by (key, id); each id in [0, ids) is in the heap at most once. Every
/// operation is O(log n) and allocation-free (the storage is sized for all ids up front), which
/// is what the bandwidth share's per-event bookkeeping needs instead of std::set's nodes.
template <typename Key>
class IndexedHeap {
public:
    struct Entry {
        Key key;
        std::uint32_t id;
    };

    explicit IndexedHeap(std::size_t ids) : position_(ids, kAbsent) { heap_.reserve(ids); }

    [[nodiscard]] bool empty() const { return heap_.empty(); }
    [[nodiscard]] bool contains(std::uint32_t id) const { return position_[id] != kAbsent; }
    /// The least (key, id); the heap must not be empty.
    [[nodiscard]] const Entry& top() const { return heap_.front(); }

    void insert(Key key, std::uint32_t id) {
        position_[id] = static_cast<std::uint32_t>(heap_.size());
        heap_.push_back({key, id});
        sift_up(heap_.size() - 1);
    }
    /// Gives `id` a new key (inserting it if absent): one sift instead of an erase and an insert.
    void update(Key key, std::uint32_t id) {
        const std::uint32_t at = position_[id];
        if (at == kAbsent) return insert(key, id);
        heap_[at].key = key;
        sift_down(sift_up(at));
    }
    /// Removes `id` if present.
    void erase(std::uint32_t id) {
        const std::uint32_t at = position_[id];
        if (at == kAbsent) return;
        position_[id] = kAbsent;
        const Entry last = heap_.back();
        heap_.pop_back();
        if (at == heap_.size()) return;
        heap_[at] = last;
        position_[last.id] = at;
        sift_down(sift_up(at));
    }
    /// Removes and returns the least entry; the heap must not be empty.
    Entry pop() {
        const Entry first = heap_.front();
        erase(first.id);
        return first;
    }
    /// Calls f(entry) for every entry whose key is below `limit()` (asked again before each
    /// step, so it may fall as f runs), in no particular order: a walk that prunes every
    /// subtree whose root is not below the limit.
    template <typename Limit, typename F>
    void for_each_below(Limit&& limit, F&& f) const {
        stack_.clear();
        if (!heap_.empty()) stack_.push_back(0);
        while (!stack_.empty()) {
            const std::size_t i = stack_.back();
            stack_.pop_back();
            if (!(heap_[i].key < limit())) continue;
            f(heap_[i]);
            for (std::size_t c = 2 * i + 1; c <= 2 * i + 2 && c < heap_.size(); ++c) stack_.push_back(c);
        }
    }

private:
    static constexpr std::uint32_t kAbsent = std::numeric_limits<std::uint32_t>::max();
    static bool less(const Entry& a, const Entry& b) { return a.key < b.key || (a.key == b.key && a.id < b.id); }
    void place(std::size_t i, const Entry& e) {
        heap_[i] = e;
        position_[e.id] = static_cast<std::uint32_t>(i);
    }
    std::size_t sift_up(std::size_t i) {
        const Entry e = heap_[i];
        while (i > 0) {
            const std::size_t parent = (i - 1) / 2;
            if (!less(e, heap_[parent])) break;
            place(i, heap_[parent]);
            i = parent;
        }
        place(i, e);
        return i;
    }
    void sift_down(std::size_t i) {
        const Entry e = heap_[i];
        const std::size_t n = heap_.size();
        while (true) {
            std::size_t child = 2 * i + 1;
            if (child >= n) break;
            if (child + 1 < n && less(heap_[child + 1], heap_[child])) ++child;
            if (!less(heap_[child], e)) break;
            place(i, heap_[child]);
            i = child;
        }
        place(i, e);
    }

    std::vector<Entry> heap_;
    std::vector<std::uint32_t> position_;  ///< by id: index in heap_, or kAbsent
    mutable std::vector<std::size_t> stack_;
};

}  // namespace gpusched::sim
