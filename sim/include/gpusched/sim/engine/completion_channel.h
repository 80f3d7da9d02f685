// CompletionChannel: the serial channel through which a block's completion reaches its SM (interval, sweep).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>

#include "gpusched/hw/gpu_spec.h"
#include "gpusched/sim/event_queue.h"
#include "gpusched/sim/engine/swept_completion_queue.h"

namespace gpusched::sim {

/// With block_completion_interval_ns = c > 0, a block ends at its end time (observers see it
/// then), but its SM learns the slot is free only when the completion has passed a serial
/// channel that takes one completion per c. First come, first served:
///
///     release = max(end, next);  next = release + c      (next: initially 0)
///
/// and a release after the end is a release event (Phase::release, payload the resident
/// index). So the first wave is not slowed; sustained refills of short blocks are limited
/// to one per c GPU-wide. With the GPU's topology.completion_sweep, completions that find the
/// channel busy (now < next) or others waiting join a SweptCompletionQueue, which the
/// channel serves in the sweep's visit order: one take event (Phase::release, payload
/// kTake) is queued while completions wait,
///
///     idle --a completion waits--> take queued at max(now, next)
///     take at t: pop the sweep's next completion; next = t + c; queue the next take at next
///                while completions still wait, else idle
///
/// The sweep's position restarts when a kernel becomes ready on an idle GPU (nothing
/// resident, nothing queued), so such a kernel runs the same whatever ran before.
/// With c = 0 there is no channel: every completion releases its slot at once.
class CompletionChannel final {
public:
    /// Payload of a release event at which the swept channel takes its next completion.
    static constexpr std::uint32_t kTake = static_cast<std::uint32_t>(Event::kMaxPayload);

    /// InputError naming the GPU when its completion sweep does not fit its SMs.
    explicit CompletionChannel(const hw::GpuSpec& gpu);

    /// True when a channel exists (c > 0).
    [[nodiscard]] bool active() const { return interval_ != 0; }
    /// The earliest time the channel takes the next completion.
    [[nodiscard]] Time next_free() const { return next_; }

    /// The block in resident index `at` on `sm` ended at `now`: true when its slot is released
    /// at once; otherwise a release (or take) event will release it.
    [[gnu::always_inline]] bool release_now(EventQueue& queue, Time now, int sm, std::size_t at) {
        if (interval_ == 0) return true;
        if (swept_ && (now < next_ || !swept_->empty())) {
            swept_->push(sm, static_cast<std::uint32_t>(at));
            if (!take_queued_) queue.push(std::max(now, next_), Phase::release, kTake);
            take_queued_ = true;
            return false;
        }
        const Time release = std::max(now, next_);
        next_ = release + interval_;
        if (release == now) return true;
        queue.push(release, Phase::release, static_cast<std::uint32_t>(at));
        return false;
    }
    /// At a take event at `now`: the queued completion the sweep takes (its resident index).
    std::size_t take(EventQueue& queue, Time now);
    /// A kernel becomes ready; `gpu_idle`: nothing is resident. Restarts the sweep when
    /// nothing waits either.
    void kernel_ready(bool gpu_idle) {
        if (swept_ && swept_->empty() && gpu_idle) swept_->restart();
    }

private:
    Time interval_;
    Time next_ = 0;
    std::optional<SweptCompletionQueue> swept_;  ///< with a sweep and c > 0
    bool take_queued_ = false;
};

}  // namespace gpusched::sim
