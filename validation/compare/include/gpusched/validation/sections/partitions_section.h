// The `partitions` section of gpusched validate: launches measured inside green contexts replayed in SM partitions.
#pragma once

#include <string>
#include <vector>

#include "gpusched/validation/section.h"

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

class PartitionsView final : public SectionView {
public:
    PartitionsView(std::vector<PartitionCase> cases, std::string dir, std::string gpu);
    void print_text(std::ostream& out) const override;
    void add_json(nlohmann::ordered_json& top) const override;
    std::string report_part() const override;

private:
    std::vector<PartitionCase> cases_;
    std::string dir_;
    std::string gpu_;
};

/// Replays partitions/timeline_*.csv (the runner's `partitions` experiment) with each launch in
/// its partition (hw::partition_sms): span, blocks per SM, per-launch start and end; skipped
/// without partitions/.
class PartitionsSection final : public ValidationSection {
public:
    std::string name() const override { return "partitions"; }
    std::string description() const override;
    std::string input() const override { return "partitions"; }
    std::unique_ptr<SectionView> run(const std::string& data_dir, const SectionSettings& settings) const override;
};

}  // namespace gpusched::validation
