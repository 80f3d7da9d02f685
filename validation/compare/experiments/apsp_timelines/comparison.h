// APSP block timelines: measured whole queued min-plus / Floyd-Warshall runs against their simulation, launch by launch.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpusched/hw/gpu_spec.h"
#include "gpusched/validation/measured_timeline.h"

namespace gpusched::validation {

/// What one timeline (measured or simulated) of a whole run shows. Launch 0 is Init; the
/// per-launch numbers are over the APSP launches 1..L, the gaps over every pair k, k+1.
struct ApspTimelineStats {
    std::uint64_t blocks = 0;              ///< every block of the run, Init included
    double span_us = 0;                    ///< first block start to last block end of the run
    double launch_span_median_us = 0;      ///< per APSP launch: its first block start to its last block end
    double block_median_us = 0;            ///< block end - start over the APSP launches' blocks
    double gap_median_us = 0;              ///< last block end of launch k -> first block start of k+1
    double gap_min_us = 0;
    double gap_max_us = 0;
    int waves = 0;                         ///< most over the APSP launches of ceil(most blocks on one SM / blocks per SM)
    int sms = 0;                           ///< SMs that ran a block
};

/// One measured case (a `<case>.csv` of the runner's `apsp-timeline`) against its simulation.
struct ApspTimelineCase {
    std::string name;                      ///< file stem, e.g. "minplus_n90_bs8"
    std::string workload_spec;             ///< the APSP spec simulated after the Init launch
    int n = 0;
    int block = 0;
    int launches = 0;                      ///< Init + the APSP launches
    std::uint64_t blocks_per_launch = 0;
    int blocks_per_sm = 0;                 ///< the simulated occupancy of the APSP launches
    bool blocks_match = true;              ///< every simulated launch has the measured number of blocks
    double overhead_percent = 0;           ///< the runner's instrumented vs plain whole-run time (metadata)
    ApspTimelineStats measured;
    ApspTimelineStats simulated;
    double span_error_percent = 0;         ///< 100 (simulated span - measured span) / measured span
    double launch_span_error_percent = 0;  ///< the same for the per-launch span medians
    double block_error_percent = 0;        ///< the same for the median block durations
    double gap_error_percent = 0;          ///< the same for the median launch gaps
    int misplaced = 0;                     ///< per launch, blocks that would have to move for the per-SM counts to match; summed
    std::vector<MeasuredBlock> measured_blocks;    ///< kept only when asked for
    std::vector<MeasuredBlock> simulated_blocks;
};

struct ApspTimelineComparison {
    std::vector<ApspTimelineCase> cases;   ///< min-plus before Floyd-Warshall, then by n and block
    bool blocks_match = true;              ///< every case's simulated launches have the measured block counts
    int total_misplaced = 0;
};

/// The statistics of a whole-run timeline of `launches` launches (launch 0 = Init);
/// `blocks_per_sm` > 0 gives the wave counts.
ApspTimelineStats apsp_timeline_stats(const std::vector<MeasuredBlock>& blocks, int launches, int blocks_per_sm);

/// Reads every `<case>.csv` in `dir` (not `summary.csv`; each needs the metadata lines
/// `# workload_spec=`, `# launches=` and `# blocks_per_launch=`, launches 0..launches-1 each with
/// that many blocks) and simulates it as `gpusched validate`'s queued curves do: the runner's
/// Init launch (`apsp-fw:n=N,block=BS,steps=1,p_min=0`), then the workload spec, every launch
/// queued, `shared` execution, `policy` on `gpu`, every launch simulated block by block.
/// InputError naming the file (and line) for malformed data or a missing directory.
ApspTimelineComparison validate_apsp_timelines(const std::string& dir, const hw::GpuSpec& gpu,
                                               const std::string& policy, bool keep_blocks = false);

}  // namespace gpusched::validation
