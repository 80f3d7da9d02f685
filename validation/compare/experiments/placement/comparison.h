// Placement validation: replay each measured timeline of a data directory and compare span and per-SM counts.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gpusched/hw/gpu_spec.h"
#include "gpusched/sim/dispatch_policy.h"
#include "gpusched/validation/measured_timeline.h"
#include "gpusched/workloads/application.h"

namespace gpusched::validation {

/// One launch of a timeline: its span (first block start to last block end) measured and replayed.
struct LaunchSpanComparison {
    std::uint64_t launch = 0;  ///< the measured `launch` value
    std::uint64_t blocks = 0;
    double measured_us = 0;
    double simulated_us = 0;
};

/// One measured case against its replay.
struct PlacementComparison {
    std::string name;           ///< file stem, e.g. "wave265"
    std::uint64_t blocks = 0;
    double measured_us = 0;     ///< first block start to last block end
    double simulated_us = 0;
    double error_percent = 0;   ///< 100 (simulated - measured) / measured
    int misplaced = 0;          ///< blocks on another SM than measured (half the L1 distance of per-SM counts)
    int measured_waves = 0;     ///< ceil(most blocks on one SM / blocks per SM), from the measured placement
    int simulated_waves = 0;    ///< the same for the simulation
    /// Kolmogorov-Smirnov distance (0..1) between the measured and simulated distributions of
    /// block start times, each relative to its run's first start.
    double start_distance = 0;
    /// Policy `walk`: the walk's start state read off the measured first blocks ("ROW:LEAD",
    /// see walk_start_of); empty for other policies.
    std::string walk_start;
    /// The H100's own run-to-run spread: for each repetition in `placement_reps/rep_counts.csv`
    /// (a later run of the same cases, next to `dir`), the blocks that would have to move for its
    /// per-SM counts to match this measured timeline; empty when that file is absent.
    std::vector<int> repetition_distances;
    /// Blocks per SM (all launches together), measured and simulated.
    std::map<int, int> measured_per_sm;
    std::map<int, int> simulated_per_sm;
    /// Per launch, in order of first appearance in the file; empty when the file's launches do not
    /// pair one to one with the replay's (the same `launch` value under two kernel names).
    std::vector<LaunchSpanComparison> launches;
    /// Per-block timelines (launch, block, SM, start, end), kept only when asked for.
    std::vector<MeasuredBlock> measured_blocks;
    std::vector<MeasuredBlock> simulated_blocks;
};

/// Replays every timeline CSV in `dir` (except runs.csv and nvidia-smi.csv; each needs
/// `# threads=` and `# smem=` metadata) with `policy` on `gpu`, in file-name order. With
/// policy `walk`, each case starts the GPU's dispatch walk where its measured launch 0 did
/// (walk_start_of): that state is hardware history the data cannot predict. Where
/// `dir/../placement_reps/rep_counts.csv` exists, each case also gets repetition_distances.
/// InputError if the directory is missing or holds no timelines.
/// With `keep_blocks`, each comparison also carries both per-block timelines (for reports).
std::vector<PlacementComparison> validate_placement(const std::string& dir, const hw::GpuSpec& gpu,
                                                    const std::string& policy, bool keep_blocks = false);

/// Replays one measured timeline: `app` holds its blocks with their measured durations
/// (load_replay_timeline of the same file), simulated with `policy` (named `policy_name`) on
/// `gpu` in `fixed` execution. With policy `walk` the GPU's dispatch walk starts where measured
/// launch 0 did. Fills every field but `name` and repetition_distances.
PlacementComparison replay_measured(const MeasuredTimeline& measured, const workloads::Application& app,
                                    const hw::GpuSpec& gpu, const sim::DispatchPolicy& policy,
                                    const std::string& policy_name, bool keep_blocks);

/// Median and maximum of a case's repetition_distances; nullopt when there are none.
struct RepetitionSpread {
    double median = 0;
    int max = 0;
};
std::optional<RepetitionSpread> repetition_spread(const PlacementComparison& c);

/// The dispatch-walk start state of launch 0 of a measured timeline: lead_start = index of
/// block 0's SM in walk.lead, start_row = the row whose first SM block lead.size() ran on.
/// nullopt when the launch has too few blocks or those SMs do not fit the walk.
std::optional<std::pair<int, int>> walk_start_of(const std::vector<MeasuredBlock>& blocks, const hw::DispatchWalk& walk);

/// sup |F_a(t) - F_b(t)| over the empirical distributions of two samples; 0 when either is empty.
double ks_distance(std::vector<Time> a, std::vector<Time> b);

/// Blocks that would have to move for the per-SM block counts of two timelines to match
/// (half the L1 distance of the counts).
int misplaced_blocks(const std::vector<MeasuredBlock>& a, const std::vector<MeasuredBlock>& b);

}  // namespace gpusched::validation
