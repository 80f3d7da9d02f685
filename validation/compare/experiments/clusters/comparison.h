// The clusters comparison: measured cluster-launch timelines replayed with cluster dispatch (what the clusters section shows).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gpusched/hw/cluster_spec.h"
#include "gpusched/hw/gpu_spec.h"
#include "gpusched/validation/measured_timeline.h"

namespace gpusched::validation {

/// One replayed cluster case (the comparison itself lives in the section's source).
struct ClusterCase {
    std::string name;
    int cluster_size = 1;
    std::size_t blocks = 0;
    double measured_us = 0, simulated_us = 0, error_percent = 0;
    int blocks_in_other_gpc = 0;       ///< blocks to move for equal per-GPC counts
    int largest_gpc_difference = 0;
    std::string repeats = "-";         ///< median/max blocks in another GPC between repetitions and the timeline
    std::string repeat_span = "-";     ///< the repetitions' shortest-longest span (us)
    bool has_repeats = false;
    bool within_repeats = false;       ///< blocks_in_other_gpc <= the repetitions' maximum
    int measured_active = 0;           ///< the runner's cudaOccupancyMaxActiveClusters
    int computed_active = 0;           ///< hw::compute_cluster_occupancy
    int simulated_peak = 0;            ///< most clusters resident at once in the replay
    std::string start;                 ///< where the replay started: GPC/small group, or the walk's ROW:LEAD
    int first_wave_clusters = 0;       ///< measured clusters that started before the first block ended
    int first_wave_same = 0;           ///< of those, the ones the replay put on the same SMs
    std::string text_windows;          ///< per-launch start/end lines
    std::string html;                  ///< the case's report part (tables and charts)
};

/// Where a measured cluster launch started its round-robins (docs/scheduling.md "Thread-block
/// clusters"): the group (index in spec.groups) of its lowest-numbered cluster in a GPC group
/// and of its lowest-numbered cluster in a small group; nullopt where it has none there.
/// Cluster k holds blocks k*c .. k*c+c-1 (1-D grids); only launch 0 is read.
struct ClusterStart {
    std::optional<int> group;
    std::optional<int> small_group;
};
ClusterStart cluster_start_of(const std::vector<MeasuredBlock>& blocks, const hw::ClusterSpec& spec, int cluster_size);

/// The first wave of `measured` (clusters of `cluster_size` blocks k*c .. k*c+c-1 whose blocks
/// all started before its first block ended): how many clusters, and how many of them
/// `simulated` put on exactly the same SMs.
std::pair<int, int> first_wave_agreement(const std::vector<MeasuredBlock>& measured,
                                         const std::vector<MeasuredBlock>& simulated, int cluster_size);

/// Replays each DIR/timeline_*.csv (the runner's `clusters` experiment, cases cC_tT[_sKIB]_wW) on
/// `gpu` with the dispatch policy `policy_name` and cluster dispatch, each starting where the
/// measured launch did: span, blocks per GPC group (clusters.groups), active clusters, and the
/// repetitions of DIR/repetitions.csv. `charts`: the cases' report parts get their Gantt charts.
/// InputError naming the file for malformed data.
std::vector<ClusterCase> validate_clusters(const std::string& dir, const hw::GpuSpec& gpu, const std::string& policy_name, bool charts);

}  // namespace gpusched::validation
