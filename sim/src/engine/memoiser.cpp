// Memoiser: recording launches' runs and repeating them.
#include "gpusched/sim/engine/memoiser.h"

#include <algorithm>

namespace gpusched::sim {

bool Memoiser::can_repeat(std::size_t launch) {
    const workloads::KernelLaunch& next = app_.launches[launch];
    const auto it = by_work_.find(next.work.get());
    if (it == by_work_.end()) return false;
    for (const std::size_t r : it->second) {
        const workloads::KernelLaunch& recorded = app_.launches[records_[r].launch];
        if (&recorded == &next || workloads::same_launch(recorded, next)) {  // copies of one spec share a record
            found_ = r;
            return true;
        }
    }
    return false;
}

void Memoiser::start_recording(std::size_t launch, Time now) {
    recording_ = true;
    launch_ = launch;
    ready_ = now;
    totals_ = RepeatedLaunch{};
    totals_.per_sm_units.assign(static_cast<std::size_t>(sm_count_), 0);
    totals_.per_sm_busy.assign(static_cast<std::size_t>(sm_count_), 0);
}

void Memoiser::count_repeated(std::size_t launch, const RepeatedLaunch& skipped) {
    if (!recording_ || launch != launch_) return;
    totals_.units += skipped.units;
    for (std::size_t sm = 0; sm < skipped.per_sm_units.size(); ++sm) add_sm(sm, skipped.per_sm_units[sm], skipped.per_sm_busy[sm]);
}

void Memoiser::launch_completed(std::size_t launch, Time now, Time first_start) {
    if (!recording_ || launch != launch_) return;
    recording_ = false;
    if (records_.size() == kMaxRecords) return;
    by_work_[app_.launches[launch].work.get()].push_back(records_.size());
    records_.push_back({launch, now - ready_, first_start - ready_, std::move(totals_)});
}

Memoiser::Repeat Memoiser::repeat(std::size_t launch, Time now) {
    const Record& record = records_[found_];
    Repeat repeat;
    repeat.totals = record.totals;
    repeat.totals.launch = launch;
    repeat.totals.same_as = record.launch;
    repeat.first_start = now + record.first_start_offset;
    repeat.end = now + record.duration;
    last_end_ = std::max(last_end_, repeat.end);
    return repeat;
}

}  // namespace gpusched::sim
