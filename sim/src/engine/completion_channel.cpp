// CompletionChannel: checking the GPU's completion sweep; the swept channel's take events.
#include "gpusched/sim/engine/completion_channel.h"

#include "gpusched/sim/engine/spec_time.h"
#include "gpusched/support/input_error.h"

namespace gpusched::sim {

CompletionChannel::CompletionChannel(const hw::GpuSpec& gpu)
    : interval_(overhead_ps(gpu.block_completion_interval_ns)) {
    if (gpu.completion_sweep)
        if (const auto problem = hw::completion_sweep_problem(*gpu.completion_sweep, gpu.sm_count, "topology.completion_sweep");
            !problem.empty())
            throw InputError("GPU '" + gpu.name + "': " + problem);
    if (gpu.completion_sweep && interval_ > 0) swept_.emplace(*gpu.completion_sweep, gpu.sm_count);
}

std::size_t CompletionChannel::take(EventQueue& queue, Time now) {
    const std::size_t at = swept_->pop();
    next_ = now + interval_;
    take_queued_ = !swept_->empty();
    if (take_queued_) queue.push(next_, Phase::release, kTake);
    return at;
}

}  // namespace gpusched::sim
