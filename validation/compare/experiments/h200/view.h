// The `h200` section of gpusched validate: the cross-GPU comparison as text, JSON and a report part.
#pragma once

#include <string>

#include "experiments/h200/comparison.h"
#include "gpusched/validation/section.h"

namespace gpusched::validation {

/// The comparison as text (the curve and series tables, then the ratios), JSON key "h200", and a report part.
class H200View final : public SectionView {
public:
    H200View(CrossGpuComparison comparison, std::string dir);
    void print_text(std::ostream& out) const override;
    void add_json(nlohmann::ordered_json& top) const override;
    std::string report_part() const override;

private:
    CrossGpuComparison c_;
    std::string dir_;
};

/// Runs only on data measured on an H200 (the `# device_name=NVIDIA H200` line of
/// curves/apsp_minplus_queued.csv); on any other data directory it shows nothing.
class H200Section final : public ValidationSection {
public:
    std::string name() const override { return "h200"; }
    std::string description() const override;
    std::string input() const override { return "curves"; }
    std::unique_ptr<SectionView> run(const std::string& data_dir, const SectionSettings& settings) const override;
};

}  // namespace gpusched::validation
