// The `streamcluster` section of gpusched validate: kernel and copy times over the rake size R against the simulation.
#pragma once

#include <string>

#include "experiments/streamcluster/comparison.h"
#include "gpusched/validation/section.h"

namespace gpusched::validation {

/// The streamcluster comparison: kernel, copy and total times per R, the best R and the
/// timelines; JSON key "streamcluster"; in the report a chart over R, the best R, the table and
/// the measured and simulated timelines (they need validate_streamcluster(..., keep_blocks = true)).
class StreamclusterView final : public SectionView {
public:
    StreamclusterView(StreamclusterComparison comparison, std::string dir);
    void print_text(std::ostream& out) const override;
    void add_json(nlohmann::ordered_json& top) const override;
    std::string report_part() const override;

private:
    StreamclusterComparison comparison_;
    std::string dir_;
};

/// Compares streamcluster/ (validate_streamcluster, with the documented keys beside the
/// defaults), skipped without streamcluster/runs.csv.
class StreamclusterSection final : public ValidationSection {
public:
    std::string name() const override { return "streamcluster"; }
    std::string description() const override;
    std::string input() const override { return "streamcluster/runs.csv"; }
    std::unique_ptr<SectionView> run(const std::string& data_dir, const SectionSettings& settings) const override;
};

}  // namespace gpusched::validation
