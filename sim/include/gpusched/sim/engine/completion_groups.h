// CompletionGroups: blocks of one dispatch batch that end at the same time share one completion event.
#pragma once

#include <cstdint>
#include <vector>

#include "gpusched/sim/event_queue.h"

namespace gpusched::sim {

/// A completion event's payload is a resident index (ResidentTable), or kFlag | id for a
/// group: the resident indices of blocks of one dispatch batch that end at the same time,
/// in dispatch order. Handling the group is handling their events one after the other:
/// they would have had consecutive sequence numbers, so no other event comes between them.
///
/// Building the events of one batch (fixed durations, nothing else scheduled meanwhile),
/// with add(batch, at, end) per placement in dispatch order, then finish(batch):
///
///     empty --add(a, e)--> single(a, e)
///     single(a, e) --add(b, e)--> group {a, b} at e       (open() takes a free id)
///     group G at e --add(b, e)--> G + b
///     single(a, e) or G at e --add(b, e'), e' != e--> push (e, a or kFlag | G); single(b, e')
///     finish: push the last one
///
/// So events are pushed in the order, and with the sequence numbers' order, that pushing
/// one per block at once would give. A group's id is reused after close() (no allocation
/// once the largest number of groups in flight has been reached).
class CompletionGroups final {
public:
    /// Payload flag of a completion event that stands for a group.
    static constexpr std::uint32_t kFlag = std::uint32_t{1} << (Event::kPayloadBits - 1);

    [[nodiscard]] static bool is_group(std::size_t payload) { return (payload & kFlag) != 0; }
    [[nodiscard]] static std::uint32_t id_of(std::size_t payload) {
        return static_cast<std::uint32_t>(payload & ~std::size_t{kFlag});
    }

    /// The completion events of one dispatch batch under construction.
    struct Batch {
        std::uint32_t first = 0;      ///< the single block when group == kFlag
        std::uint32_t group = kFlag;  ///< kFlag: no group yet
        Time end = 0;
        bool any = false;
    };
    /// The block in resident index `at`, ending at `end`, joins the batch.
    [[gnu::always_inline]] void add(Batch& batch, EventQueue& queue, std::uint32_t at, Time end) {
        if (batch.any && end == batch.end) {
            if (batch.group == kFlag) {
                batch.group = open();
                groups_[batch.group].push_back(batch.first);
            }
            groups_[batch.group].push_back(at);
            return;
        }
        if (batch.any) push(batch, queue);
        batch = {at, kFlag, end, true};
    }
    /// Pushes the batch's last event.
    void finish(const Batch& batch, EventQueue& queue) {
        if (batch.any) push(batch, queue);
    }

    /// An empty group's id.
    std::uint32_t open() {
        if (free_.empty()) {
            groups_.emplace_back();
            return static_cast<std::uint32_t>(groups_.size() - 1);
        }
        const std::uint32_t group = free_.back();
        free_.pop_back();
        return group;
    }
    [[nodiscard]] const std::vector<std::uint32_t>& members(std::uint32_t group) const { return groups_[group]; }
    /// The group's event has been handled: its id is free again.
    void close(std::uint32_t group) {
        groups_[group].clear();
        free_.push_back(group);
    }

private:
    static void push(const Batch& batch, EventQueue& queue) {
        queue.push(batch.end, Phase::completion, batch.group == kFlag ? batch.first : kFlag | batch.group);
    }

    std::vector<std::vector<std::uint32_t>> groups_;
    std::vector<std::uint32_t> free_;
};

}  // namespace gpusched::sim
