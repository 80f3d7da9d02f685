// WaveReplay: the full waves of one launch of identical fixed-duration blocks on an empty GPU, skipped once one was seen.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "gpusched/support/time.h"

namespace gpusched::sim {

/// A dispatch pass that meets an empty GPU (no unit resident) with one active launch places what
/// the launch's dispatcher chooses from the rooms of an empty GPU. When those choices depend on
/// nothing else (KernelDispatcher::skip_units accepts), every such pass of the launch places the same
/// number of units on the same SMs. With fixed durations that are the same for every block
/// (BlockWork::same_duration_for_every_block), no launch pipeline, completion channel or dispatch
/// interval, and no observer that needs every block, that wave ends all at one instant, the pass
/// there meets an empty GPU again, and the launch runs as a train of identical waves up to its
/// last one. The engine records one wave; at the next pass that meets the GPU empty at that wave's
/// end it skips the waves that are sure to repeat it (each full, all ending before the next queued
/// event, at least one unit left for the passes after them), then runs the pass. The schedule is
/// the one of dispatching them block by block (tests/sim/wave_replay_test.cpp); observers that take
/// totals get the skipped waves' per-SM units and busy time (SimObserver::on_launch_repeated).
///
///     none --pass on an empty GPU by launch L at d: m units placed, each running D, all ending
///            at e = d + latency + D, L not fully dispatched--> wave(L, d, m, e)
///     wave --any other dispatch (a refill, a pass on a busy GPU or with other launches)--> none
///     wave(L, d, m, e) --pass on an empty GPU at e, L its one active launch--> n waves skipped:
///            now = e + n (e - d), L's units n m further on; the pass then records wave(L, now, m, ...)
///
/// Sample: 1,000,000 blocks of 50 us, 1024 threads, on the h100 without its overheads (264 resident):
/// pass 1 dispatches wave 1 and records it; at its end, waves 2..3787 (999,504 blocks) are skipped in
/// one step, and that pass dispatches the 232-block tail (tests/sim/wave_replay_test.cpp checks the
/// same arithmetic on a small GPU).
class WaveReplay final {
public:
    void set_enabled(bool on) { enabled_ = on; }
    [[nodiscard]] bool enabled() const { return enabled_; }
    /// Any dispatch that is not a recorded wave: nothing recorded is reused.
    void forget() { valid_ = false; }

    /// A pass on an empty GPU is about to place launch `launch`'s units: per-SM counts are kept
    /// when `per_sm` (observers take the skipped waves as per-SM totals) on a GPU of `sm_count` SMs.
    void begin_wave(std::size_t launch, bool per_sm, int sm_count);
    /// One unit of the wave being placed went to `sm` (only while counting()).
    void count(int sm) { ++per_sm_units_[static_cast<std::size_t>(sm)]; }
    [[nodiscard]] bool counting() const { return counting_; }
    /// The pass placed `units` units starting at `start`, each running `block_time`, all ending at `end`.
    void record(Time start, Time end, Time block_time, std::uint64_t units);

    /// Waves to skip at a pass at `now` that meets the GPU empty with `launch` its one active
    /// launch, `remaining` of its units not yet placed, the next queued event at `next_event`
    /// (kTimeLimit when none): 0 unless the recorded wave is that launch's and ended at `now`.
    [[nodiscard]] std::uint64_t waves_to_skip(std::size_t launch, Time now, std::uint64_t remaining, Time next_event) const;
    [[nodiscard]] Time period() const { return end_ - start_; }
    [[nodiscard]] std::uint64_t units() const { return units_; }
    [[nodiscard]] Time block_time() const { return block_time_; }
    /// Per SM, the units of one recorded wave (empty unless counted).
    [[nodiscard]] const std::vector<std::uint64_t>& per_sm_units() const { return per_sm_units_; }
    /// `units` units were skipped.
    void skipped(std::uint64_t units) { skipped_ += units; }
    /// Units skipped so far in this run.
    [[nodiscard]] std::uint64_t skipped_units() const { return skipped_; }

private:
    bool enabled_ = true;
    bool valid_ = false;
    bool counting_ = false;
    std::size_t launch_ = 0;
    Time start_ = 0;
    Time end_ = 0;
    Time block_time_ = 0;
    std::uint64_t units_ = 0;
    std::vector<std::uint64_t> per_sm_units_;
    std::uint64_t skipped_ = 0;
};

}  // namespace gpusched::sim
