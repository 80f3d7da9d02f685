// Memoiser: recording a launch's run and repeating it.
#include "gpusched/sim/engine/memoiser.h"

#include <algorithm>

namespace gpusched::sim {

bool Memoiser::can_repeat(std::size_t launch) const {
    if (!valid_) return false;
    const workloads::KernelLaunch& recorded = app_.launches[launch_];
    const workloads::KernelLaunch& next = app_.launches[launch];
    return &recorded == &next || workloads::same_launch(recorded, next);  // copies of one spec share a record
}

void Memoiser::start_recording(std::size_t launch, Time now) {
    recording_ = true;
    valid_ = false;  // the launch recorded so far is replaced: nothing repeats until this one completes
    launch_ = launch;
    ready_ = now;
    totals_ = RepeatedLaunch{};
    totals_.per_sm_units.assign(static_cast<std::size_t>(sm_count_), 0);
    totals_.per_sm_busy.assign(static_cast<std::size_t>(sm_count_), 0);
}

void Memoiser::launch_completed(std::size_t launch, Time now, Time first_start) {
    if (!recording_ || launch != launch_) return;
    recording_ = false;
    valid_ = true;
    duration_ = now - ready_;
    first_start_offset_ = first_start - ready_;
}

Memoiser::Repeat Memoiser::repeat(std::size_t launch, Time now) {
    Repeat repeat;
    repeat.totals = totals_;
    repeat.totals.launch = launch;
    repeat.totals.same_as = launch_;
    repeat.first_start = now + first_start_offset_;
    repeat.end = now + duration_;
    last_end_ = std::max(last_end_, repeat.end);
    return repeat;
}

}  // namespace gpusched::sim
