// The `curves` section of gpusched validate: APSP runtime curves over n, calibrated at one point, their jumps located.
#pragma once

#include <string>
#include <vector>

#include "experiments/curves/comparison.h"
#include "gpusched/validation/section.h"

namespace gpusched::validation {

/// The curves: a table of one row per curve; JSON key "curves" (absent without curves); in the
/// report per curve a paragraph and two charts (the dense sweep with its jumps, every size).
class CurvesView final : public SectionView {
public:
    CurvesView(std::vector<CurveComparison> curves, std::string dir);
    void print_text(std::ostream& out) const override;
    void add_json(nlohmann::ordered_json& top) const override;
    std::string report_part() const override;

private:
    std::vector<CurveComparison> curves_;
    std::string dir_;
};

/// Compares every curve CSV of `curves/` that is there (validate_curve_dir); none is no curve.
class CurvesSection final : public ValidationSection {
public:
    std::string name() const override { return "curves"; }
    std::string description() const override;
    std::string input() const override { return "curves"; }
    bool skipped_when_missing() const override { return false; }
    std::unique_ptr<SectionView> run(const std::string& data_dir, const SectionSettings& settings) const override;
};

}  // namespace gpusched::validation
