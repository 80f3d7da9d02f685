// The `spmv` section of gpusched validate: SpMV launches per matrix and format against calibrated simulations.
#pragma once

#include <string>

#include "experiments/spmv/comparison.h"
#include "gpusched/validation/section.h"

namespace gpusched::validation {

/// The SpMV comparison: the table of every configuration and the per-format summary; JSON key
/// "spmv"; in the report the summary, a chart of block spans, the table and the measured and
/// simulated timelines (they need validate_spmv(..., keep_blocks = true)).
class SpmvView final : public SectionView {
public:
    SpmvView(SpmvComparison comparison, std::string dir);
    void print_text(std::ostream& out) const override;
    void add_json(nlohmann::ordered_json& top) const override;
    std::string report_part() const override;

private:
    SpmvComparison comparison_;
    std::string dir_;
};

/// Compares spmv/ (validate_spmv), skipped without spmv/runs.csv.
class SpmvSection final : public ValidationSection {
public:
    std::string name() const override { return "spmv"; }
    std::string description() const override;
    std::string input() const override { return "spmv/runs.csv"; }
    std::unique_ptr<SectionView> run(const std::string& data_dir, const SectionSettings& settings) const override;
};

}  // namespace gpusched::validation
