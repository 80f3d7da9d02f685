// SweptCompletionQueue: completions waiting at the completion channel, taken in the GPU's sweep order.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "gpusched/hw/completion_sweep.h"

namespace gpusched::sim {

/// The queue of a completion channel with a hw::CompletionSweep. State machine (one step
/// per pop; a visit is an entry of the sweep, visited cyclically from the first):
///
///     enter visit v: credit_v += releases_v; left = floor(credit_v); credit_v -= left
///     left > 0 and an SM of v has a completion queued:
///         take the oldest completion of the next such SM after the last one v took
///         (round-robin over v's SMs); left -= 1
///     otherwise: enter the next visit
///
/// So with every SM waiting, a visit takes exactly its `releases` on average (1.5: 1, 2,
/// 1, 2, ...) and each of its SMs a 1/|sms| share of that. A visit with nothing queued
/// forfeits its takes. Completions of one SM leave in arrival order. The sweep's position
/// carries from backlog to backlog; the engine restarts it when a kernel becomes ready on an
/// idle GPU (so such a kernel runs the same whatever ran before: memoisation relies on it).
///
/// Sample (h100 preset, every SM waiting): row 0 takes SM 0; the lead 124; row 1 takes
/// 2, 3, 18; row 2 takes 4, 5, 20; ... row 7 takes 14, 15, 30; then row 0 takes 1, 16; the
/// lead 125, 126; row 1 takes 19, 34, 35; ...
class SweptCompletionQueue {
public:
    SweptCompletionQueue(const hw::CompletionSweep& sweep, int sm_count);

    /// A completion (the engine's resident index `at` of a block on `sm`) joins the queue.
    void push(int sm, std::uint32_t at);
    [[nodiscard]] bool empty() const { return waiting_ == 0; }
    /// The completion the channel takes next (precondition: !empty()).
    std::uint32_t pop();
    /// Back to the first visit, no credit, every round-robin at its first SM (precondition: empty()).
    void restart();

private:
    struct Visit {
        std::vector<int> sms;
        double releases = 1;
        double credit = 0;
        std::size_t next = 0;  ///< index in sms where the round-robin looks first
        std::size_t waiting = 0;
    };
    std::vector<Visit> visits_;
    std::vector<std::size_t> visit_of_;              ///< by SM
    std::vector<std::deque<std::uint32_t>> queued_;  ///< by SM, oldest first
    std::size_t current_ = 0;
    bool entered_ = false;
    int left_ = 0;
    std::size_t waiting_ = 0;
};

}  // namespace gpusched::sim
