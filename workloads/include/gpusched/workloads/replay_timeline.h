// Replay: an application whose block durations are read from a measured (or simulated) timeline CSV.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpusched/support/time.h"
#include "gpusched/workloads/application.h"
#include "gpusched/workloads/kernel_launch.h"
#include "gpusched/workloads/timeline_csv.h"

namespace gpusched::workloads {

/// At most this many block rows in one timeline file.
constexpr std::uint64_t kMaxReplayRows = kMaxTimelineRows;

/// The block durations of every launch of one timeline file, in one array, and the file's name.
struct ReplayDurations {
    std::vector<Time> durations;  ///< launch by launch, each launch's blocks in block order
    std::string source;
};

/// Block work with one stored duration per block (the timeline is materialised anyway): blocks
/// [first, first + count) of a ReplayDurations shared by all launches of one file, so a launch
/// costs a few words, not a vector and a copy of the file name.
class ReplayWork final : public BlockWork {
public:
    /// `all` must outlive this work (load_replay_timeline keeps both in one shared owner).
    ReplayWork(const ReplayDurations& all, std::size_t first, std::size_t count);

    /// Throws std::out_of_range for a block the timeline does not have (a caller bug).
    [[nodiscard]] Time duration(std::uint64_t block) const override;
    /// "replay of 265 blocks from run.csv"
    [[nodiscard]] std::string describe() const override;
    [[nodiscard]] std::size_t size() const { return count_; }

private:
    const ReplayDurations* all_;
    std::size_t first_;
    std::size_t count_;
};

/// Reads a timeline CSV (TimelineCsvReader: `#` metadata lines, a header with the columns
/// `block,sm,start_ns,end_ns`, optional `kernel` and `launch`, others ignored). Rows form one
/// launch per distinct (kernel, launch) pair, in order of first appearance, all on stream 0; each launch's block ids must be 0..N-1 once
/// each, in any order. A block's duration is end_ns - start_ns, each time rounded to the
/// nearest picosecond (integer and up-to-three-decimal nanoseconds are exact). Every launch
/// gets `threads` threads per block (1..2^20), `regs` registers per thread (0..65536) and
/// `dynamic_smem` bytes of dynamic shared memory (0..2^40). At most `max_rows` block rows
/// (tests lower it). Errors name PATH:LINE.
Application load_replay_timeline(const std::string& path, int threads, int regs, std::int64_t dynamic_smem,
                                 std::uint64_t max_rows = kMaxReplayRows);

}  // namespace gpusched::workloads
