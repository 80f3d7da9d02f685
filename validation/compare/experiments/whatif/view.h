// The `whatif` section of gpusched validate: whole-GPU traces predicted on K SMs against green-context runs of K SMs.
#pragma once

#include <string>

#include "gpusched/validation/section.h"
#include "experiments/whatif/comparison.h"

namespace gpusched::validation {

/// The what-if comparison: per workload and K the busy-time ratio T(K)/T(whole GPU) measured and
/// predicted, the reference reproduction, the kernels whose wave count changes, the project's own
/// kernels; JSON key "whatif"; in the report charts of the ratios and per-kernel tables.
class WhatIfView final : public SectionView {
public:
    WhatIfView(WhatIfComparison comparison, std::string dir);
    void print_text(std::ostream& out) const override;
    void add_json(nlohmann::ordered_json& top) const override;
    std::string report_part() const override;

private:
    WhatIfComparison comparison_;
    std::string dir_;
};

/// The comparison as JSON (the "whatif" key's value).
nlohmann::ordered_json what_if_json(const WhatIfComparison& c);
/// The chart of measured and predicted T(K)/T (inline SVG).
std::string ratio_chart(const WhatIfComparison& c);
/// The ratio table (a row per workload and K) and the workload table, as text.
void print_what_if_points(std::ostream& out, const WhatIfComparison& c);
/// The ratio chart and the ratio table, as HTML.
std::string what_if_points_html(const WhatIfComparison& c);

/// Compares torch/ (and green/ when present) by validate_what_if, skipped without torch/.
class WhatIfSection final : public ValidationSection {
public:
    std::string name() const override { return "whatif"; }
    std::string description() const override;
    std::string input() const override { return "torch"; }
    std::unique_ptr<SectionView> run(const std::string& data_dir, const SectionSettings& settings) const override;
};

}  // namespace gpusched::validation
