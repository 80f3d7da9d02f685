// RankSet and RoomRanking: small bitset structures that find SMs by tie-break rank in O(SMs/64).
#pragma once

#include <bit>
#include <cstdint>
#include <optional>
#include <vector>

namespace gpusched::scheduler {

/// A set of positions 0..n-1 (positions are ranks in the GPU's SM order).
class RankSet {
public:
    explicit RankSet(int n = 0) : n_(n), words_(static_cast<std::size_t>((n + 63) / 64), 0) {}
    void insert(int pos) { words_[static_cast<std::size_t>(pos) >> 6] |= bit(pos); }
    void erase(int pos) { words_[static_cast<std::size_t>(pos) >> 6] &= ~bit(pos); }
    [[nodiscard]] bool contains(int pos) const { return (words_[static_cast<std::size_t>(pos) >> 6] & bit(pos)) != 0; }
    /// Lowest position >= from, wrapping around to 0; nullopt if empty.
    [[nodiscard]] std::optional<int> next_from(int from) const {
        if (n_ == 0) return std::nullopt;
        if (auto p = first_at_or_after(from)) return p;
        return first_at_or_after(0);
    }
    [[nodiscard]] std::optional<int> first() const { return first_at_or_after(0); }

private:
    static std::uint64_t bit(int pos) { return std::uint64_t{1} << (pos & 63); }
    [[nodiscard]] std::optional<int> first_at_or_after(int from) const {
        if (from >= n_) return std::nullopt;
        std::size_t w = static_cast<std::size_t>(from) >> 6;
        std::uint64_t word = words_[w] & (~std::uint64_t{0} << (from & 63));
        while (true) {
            if (word != 0) return static_cast<int>(w * 64 + static_cast<std::size_t>(std::countr_zero(word)));
            if (++w >= words_.size()) return std::nullopt;
            word = words_[w];
        }
    }
    int n_;
    std::vector<std::uint64_t> words_;
};

/// Positions grouped by their room (how many more units fit); finds the position with the
/// most room, ties broken by the lowest position. Updates are O(1), queries O(levels + n/64).
/// The per-level bitsets live in one flat array (level-major) to keep lookups cache-friendly.
class RoomRanking {
public:
    RoomRanking(int positions, int max_room)
        : max_room_(max_room),
          words_per_level_(static_cast<std::size_t>((positions + 63) / 64)),
          room_(static_cast<std::size_t>(positions), 0),
          bits_(words_per_level_ * static_cast<std::size_t>(max_room + 1), 0) {}
    void set(int pos, int room) {
        int& current = room_[static_cast<std::size_t>(pos)];
        if (current == room) return;
        const std::size_t word = static_cast<std::size_t>(pos) >> 6;
        const std::uint64_t bit = std::uint64_t{1} << (pos & 63);
        const int from = level(current);
        const int to = level(room);
        current = room;
        if (from == to) return;
        if (from > 0) bits_[static_cast<std::size_t>(from) * words_per_level_ + word] &= ~bit;
        if (to > 0) {
            bits_[static_cast<std::size_t>(to) * words_per_level_ + word] |= bit;
            if (to > top_) top_ = to;
        }
    }
    [[nodiscard]] int room(int pos) const { return room_[static_cast<std::size_t>(pos)]; }
    /// True only when no position has room (false can also mean "not known until take_best() runs").
    [[nodiscard]] bool known_empty() const { return top_ == 0; }
    /// Takes one unit of room from the position with the most room (>= 1), lowest position
    /// among equals, and returns it; -1 when no position has room.
    int take_best() {
        for (; top_ > 0; --top_) {
            std::uint64_t* level_bits = &bits_[static_cast<std::size_t>(top_) * words_per_level_];
            for (std::size_t w = 0; w < words_per_level_; ++w) {
                const std::uint64_t word = level_bits[w];
                if (word == 0) continue;
                const int pos = static_cast<int>(w * 64 + static_cast<std::size_t>(std::countr_zero(word)));
                const int room = --room_[static_cast<std::size_t>(pos)];
                if (level(room) != top_) {  // it drops to the level below (rooms above max_room_ stay)
                    level_bits[w] = word & (word - 1);
                    if (room > 0) bits_[static_cast<std::size_t>(top_ - 1) * words_per_level_ + w] |= word & ~(word - 1);
                }
                return pos;
            }
        }
        return -1;
    }
    /// Exactly what up to `limit` successive take_best() calls would do, calling
    /// `taken(pos)` for each position taken; returns how many were taken (fewer than
    /// `limit` only when no position has room left). Below the top level every position of
    /// a level has exactly that room, so a level is taken a word at a time: its positions in
    /// order, each moving to the level below.
    template <typename Taken>
    std::size_t take_many(std::size_t limit, Taken&& taken) {
        std::size_t n = 0;
        while (n < limit && top_ > 0) {
            if (top_ == max_room_) {  // rooms above max_room_ share this level: one at a time
                const int pos = take_best();
                if (pos < 0) break;
                taken(pos);
                ++n;
                continue;
            }
            std::uint64_t* level_bits = &bits_[static_cast<std::size_t>(top_) * words_per_level_];
            std::uint64_t* below = top_ > 1 ? level_bits - words_per_level_ : nullptr;
            for (std::size_t w = 0; w < words_per_level_ && n < limit; ++w) {
                std::uint64_t word = level_bits[w];
                std::uint64_t moved = 0;
                for (; word != 0 && n < limit; ++n) {
                    const std::uint64_t lowest = word & (~word + 1);
                    const int pos = static_cast<int>(w * 64 + static_cast<std::size_t>(std::countr_zero(word)));
                    --room_[static_cast<std::size_t>(pos)];
                    taken(pos);
                    moved |= lowest;
                    word ^= lowest;
                }
                level_bits[w] = word;
                if (below != nullptr) below[w] |= moved;
            }
            if (n < limit) --top_;  // this level is empty now
        }
        return n;
    }

private:
    /// Rooms above max_room share the top level (they still rank first).
    [[nodiscard]] int level(int room) const { return room > max_room_ ? max_room_ : room; }
    int max_room_;
    std::size_t words_per_level_;
    std::vector<int> room_;
    std::vector<std::uint64_t> bits_;
    int top_ = 0;
};

/// Maps SM ids to their position in a launch's SM order (-1 = not allowed).
inline std::vector<int> positions_of(const std::vector<int>& sms_in_order, int sm_count) {
    std::vector<int> pos(static_cast<std::size_t>(sm_count), -1);
    for (std::size_t i = 0; i < sms_in_order.size(); ++i) pos[static_cast<std::size_t>(sms_in_order[i])] = static_cast<int>(i);
    return pos;
}

}  // namespace gpusched::scheduler
