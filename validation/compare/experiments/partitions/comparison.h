// The partitions comparison: launches measured inside green contexts replayed in SM partitions (what the partitions section shows).
#pragma once

#include <string>
#include <vector>

#include "gpusched/hw/gpu_spec.h"

namespace gpusched::validation {

/// One replayed partition case.
struct PartitionCase {
    std::string name;
    std::vector<int> partitions;        ///< SM counts of the green contexts
    std::size_t blocks = 0;
    double measured_us = 0, simulated_us = 0, error_percent = 0;
    int blocks_on_other_sm = 0;         ///< blocks to move for equal per-SM counts
    int largest_sm_difference = 0;
    std::string repeats = "-";          ///< median/max blocks on another SM between repetitions and the timeline
    std::string repeat_span = "-";      ///< the repetitions' shortest-longest span (us)
    bool has_repeats = false;
    bool within_repeats = false;        ///< blocks_on_other_sm <= the repetitions' maximum
    int measured_outside = 0;           ///< measured blocks on SMs outside the modelled partition of their launch
    std::string text_windows;
    std::string html;
};

/// Replays each DIR/timeline_*.csv (the runner's `partitions` experiment, cases partitionK and
/// side_by_sideK) on `gpu` with the dispatch policy `policy_name`, each launch in its partition
/// (hw::partition_sms): span, blocks per SM, per-launch start and end, and the repetitions of
/// DIR/repetitions.csv. `charts`: the cases' report parts get their Gantt charts. InputError
/// naming the file for malformed data.
std::vector<PartitionCase> validate_partitions(const std::string& dir, const hw::GpuSpec& gpu, const std::string& policy_name, bool charts);

}  // namespace gpusched::validation
