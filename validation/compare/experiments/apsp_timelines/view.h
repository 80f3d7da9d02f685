// The `apsp-timelines` section of gpusched validate: whole APSP runs' block timelines against uncalibrated simulations.
#pragma once

#include <string>

#include "experiments/apsp_timelines/comparison.h"
#include "gpusched/validation/section.h"

namespace gpusched::validation {

/// The APSP block-timeline comparison: one row per case; JSON key "apsp_timelines"; in the
/// report the per-case table and per case the measured and simulated per-SM Gantt charts
/// (they need validate_apsp_timelines(..., keep_blocks = true)).
class ApspTimelinesView final : public SectionView {
public:
    ApspTimelinesView(ApspTimelineComparison comparison, std::string dir, std::string policy);
    void print_text(std::ostream& out) const override;
    void add_json(nlohmann::ordered_json& top) const override;
    std::string report_part() const override;

private:
    ApspTimelineComparison comparison_;
    std::string dir_;
    std::string policy_;
};

/// Compares apsp_timeline/ with the replay policy (validate_apsp_timelines), skipped without it.
class ApspTimelinesSection final : public ValidationSection {
public:
    std::string name() const override { return "apsp-timelines"; }
    std::string description() const override;
    std::string input() const override { return "apsp_timeline"; }
    std::unique_ptr<SectionView> run(const std::string& data_dir, const SectionSettings& settings) const override;
};

}  // namespace gpusched::validation
