// Memoiser: a launch identical to an earlier one that ran undisturbed on an idle GPU is not simulated again.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "gpusched/sim/observer.h"
#include "gpusched/support/checked_time.h"
#include "gpusched/workloads/application.h"

namespace gpusched::sim {

/// When a launch becomes ready on an idle GPU (no resident block, nothing else queued, every
/// other stream drained: the engine decides) and is identical to a launch recorded earlier,
/// which started the same way and ran undisturbed, its run is that launch's run shifted in
/// time, so it is not simulated again: observers get on_launch_repeated with the recorded
/// per-SM totals. An idle GPU is the same state whenever it occurs (no block resident, the
/// bandwidth clock re-anchored, the completion sweep restarted, the dispatcher free), so the
/// recording need not be the launch just before: the memo keeps up to kMaxRecords of them,
/// found by the launch's work (identical launches share it) and checked with same_launch, so
/// the iterations of a repeated training step repeat their first iteration's launches. The
/// engine does this only when no observer needs every block (timeline and trace writers do)
/// and never with a policy that keeps state between launches (DispatchPolicy::keeps_state);
/// results are identical to full simulation (tests/sim/memoisation_test.cpp).
///
///     not recording --launch L ready on an idle GPU, no record of its kind--> recording L (totals reset)
///     recording L --a launch ready on a busy GPU--> not recording (L ran disturbed; not kept)
///     recording L --L's last block ends--> not recording; L's duration, first start and totals kept
///         (once kMaxRecords are kept, no more: the memory stays bounded)
///
/// Invariant: a record's duration, first start and totals are all those of its one launch (a
/// repeat never mixes two recordings). The engine's idleness test makes a disturbed recording
/// unreachable today (nothing else is in flight when L becomes ready, so nothing else can
/// become ready before L ends); the state machine does not rely on that.
class Memoiser final {
public:
    Memoiser(const workloads::Application& app, int sm_count) : app_(app), sm_count_(sm_count) {}

    /// On by default.
    void set_enabled(bool on) { enabled_ = on; }
    [[nodiscard]] bool enabled() const { return enabled_; }

    /// At most this many recorded launches are kept (each holds per-SM totals).
    static constexpr std::size_t kMaxRecords = 4096;

    /// True when launch `launch`, ready on an idle GPU, repeats a recorded launch (which repeat() and
    /// recorded_duration() then use).
    [[nodiscard]] bool can_repeat(std::size_t launch);
    /// Launch `launch` became ready at `now` on an idle GPU and runs: record it.
    void start_recording(std::size_t launch, Time now);
    /// Another launch became ready while the GPU was busy.
    void stop_recording() { recording_ = false; }

    /// A block of `launch` on `sm` that ran `busy` ps ended; `per_sm`: per-SM totals are wanted
    /// (they reach only observers).
    [[gnu::always_inline]] void count_block(std::size_t launch, int sm, Time busy, bool per_sm) {
        if (!recording_ || launch != launch_) return;
        if (per_sm) add_sm(static_cast<std::size_t>(sm), 1, busy);
        ++totals_.units;
    }
    /// `units` blocks of `launch` ended (no per-SM totals: no observers).
    void count_units(std::size_t launch, std::uint64_t units) {
        if (recording_ && launch == launch_) totals_.units += units;
    }
    /// Blocks of `launch` the engine skipped as repeated waves (WaveReplay): their totals, per SM
    /// when given (observers want them).
    void count_repeated(std::size_t launch, const RepeatedLaunch& skipped);
    /// The last block of `launch` ended at `now`; its first block started at `first_start`.
    void launch_completed(std::size_t launch, Time now, Time first_start);

    /// A repeated launch: its totals, its first start and its end.
    struct Repeat {
        RepeatedLaunch totals;
        Time first_start = 0;
        Time end = 0;
    };
    /// Launch `launch`, ready at `now`, repeats the record can_repeat() found.
    Repeat repeat(std::size_t launch, Time now);
    /// How long the launch of the record can_repeat() found took from ready to its last block's end.
    [[nodiscard]] Time recorded_duration() const { return records_[found_].duration; }
    /// The latest end of a repeated launch (0: none).
    [[nodiscard]] Time last_end() const { return last_end_; }

private:
    /// `units` blocks that ran `busy` ps in all on `sm`, into the recording's per-SM totals.
    void add_sm(std::size_t sm, std::uint64_t units, Time busy) {
        totals_.per_sm_units[sm] += units;
        Time& total = totals_.per_sm_busy[sm];
        total = checked_time_sum(total, busy, [sm] { return "SM " + std::to_string(sm) + ": its busy time"; });
    }
    const workloads::Application& app_;
    int sm_count_;
    /// A launch that ran undisturbed from an idle GPU: its run relative to its ready time.
    struct Record {
        std::size_t launch = 0;
        Time duration = 0;
        Time first_start_offset = 0;
        RepeatedLaunch totals;
    };
    bool enabled_ = true;
    bool recording_ = false;
    std::size_t launch_ = 0;  ///< the launch being recorded
    Time ready_ = 0;
    RepeatedLaunch totals_;   ///< the recording's totals so far
    std::vector<Record> records_;
    std::unordered_map<const workloads::BlockWork*, std::vector<std::size_t>> by_work_;  ///< into records_
    std::size_t found_ = 0;   ///< the record can_repeat() found
    Time last_end_ = 0;
};

}  // namespace gpusched::sim
