// The `partitions` section of gpusched validate: the partitions comparison as text, JSON and a report part.
#pragma once

#include <string>
#include <vector>

#include "experiments/partitions/comparison.h"
#include "gpusched/validation/section.h"

namespace gpusched::validation {

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
