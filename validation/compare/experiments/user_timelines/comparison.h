// Replay of a user's directory of block timeline CSVs (gpusched/probe.cuh or any writer of the timeline format).
#pragma once

#include <string>
#include <vector>

#include "gpusched/hw/gpu_spec.h"
#include "experiments/placement/comparison.h"
#include "experiments/user_timelines/slot_durations.h"

namespace gpusched::validation {

/// One timeline file of the directory against its replay.
struct UserTimelineComparison {
    std::string file;         ///< path relative to the directory, '/'-separated
    std::string kernel;       ///< the `# kernel=` metadata, or "-"
    std::string device;       ///< the `# device=` (or `# device_name=`) metadata, or "-"
    std::uint64_t launches = 0;
    int threads = 0;          ///< per block, from `# threads=`
    int regs = 0;             ///< per thread, from `# regs=` (0 when absent)
    std::int64_t smem = 0;    ///< shared memory per block, from `# smem=` (0 when absent)
    BlockDurations durations = BlockDurations::slot;  ///< how the replay took each block's duration (slot or stamps)
    std::uint64_t out_of_order_stamps = 0;  ///< the evidence `auto` decides on (slot_durations.h)
    int slots_per_sm = 0;     ///< blocks per SM by the occupancy calculator (the slots of the inference)
    SlotInference inference;  ///< what the slot inference found (with BlockDurations::slot)
    Time refill_delay = 0;    ///< the GPU's block end -> refill start for this shape (slot inference)
    PlacementComparison replay;
};

/// What a directory held.
struct UserTimelines {
    std::vector<UserTimelineComparison> files;
    std::vector<std::string> skipped;  ///< CSV files whose header is not a timeline's (relative paths)
};

/// Whether the first non-comment, non-blank line of a CSV names the columns block, sm, start_ns
/// and end_ns (a timeline); InputError for a file that is not readable text.
bool is_timeline_csv(const std::string& path);

/// Replays every timeline CSV under `dir` (recursively, in path order; other CSV files are
/// listed as skipped) with `policy` on `gpu`, each block with its measured duration (`fixed`
/// execution; `durations`: slot = from its inferred dispatch, stamps = from its first stamp, auto =
/// slot where the file has out-of-order first stamps, see slot_durations.h), every launch of a file with the file's `# threads=` (required), `# regs=` and
/// `# smem=` (static + dynamic bytes). With policy `walk` each file starts the GPU's dispatch walk
/// where its measured launch 0 did. InputError (naming the file and key) for a missing
/// directory, no timeline in it, more than 10000 CSV files, a missing `# threads=`, malformed
/// rows, or a `# sm_count=` other than the GPU's.
UserTimelines validate_user_timelines(const std::string& dir, const hw::GpuSpec& gpu, const std::string& policy,
                                      bool keep_blocks = false, BlockDurations durations = BlockDurations::automatic);

}  // namespace gpusched::validation
