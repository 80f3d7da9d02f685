// WaveReplay: recording one wave of a launch and how many of the next ones repeat it.
#include "gpusched/sim/engine/wave_replay.h"

#include <algorithm>

#include "gpusched/support/checked_time.h"

namespace gpusched::sim {

void WaveReplay::begin_wave(std::size_t launch, bool per_sm, int sm_count) {
    valid_ = false;
    launch_ = launch;
    counting_ = per_sm;
    if (per_sm) per_sm_units_.assign(static_cast<std::size_t>(sm_count), 0);
}

void WaveReplay::record(Time start, Time end, Time block_time, std::uint64_t units) {
    counting_ = false;
    valid_ = units > 0 && end > start;
    start_ = start;
    end_ = end;
    block_time_ = block_time;
    units_ = units;
}

std::uint64_t WaveReplay::waves_to_skip(std::size_t launch, Time now, std::uint64_t remaining, Time next_event) const {
    if (!enabled_ || !valid_ || launch != launch_ || now != end_ || remaining <= units_ || next_event <= now) return 0;
    const Time period = end_ - start_;
    // Each skipped wave full, at least one unit left for the passes after them.
    std::uint64_t n = (remaining - 1) / units_;
    // Every skipped wave ends before the next queued event (and inside the time range).
    const Time horizon = std::min(next_event, kTimeLimit) - now - 1;
    n = std::min<std::uint64_t>(n, static_cast<std::uint64_t>(horizon / period));
    return n;
}

}  // namespace gpusched::sim
