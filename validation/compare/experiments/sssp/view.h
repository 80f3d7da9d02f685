// The `sssp` section of gpusched validate: n x SSSP run times, speedups, carveouts and timelines against the simulation.
#pragma once

#include <string>

#include "experiments/sssp/comparison.h"
#include "gpusched/validation/section.h"

namespace gpusched::validation {

/// The n x SSSP comparison: every run, the speedups over streams, the carveout ratios, the
/// timelines and the frontier checks; JSON key "sssp"; in the report the frontier check, two
/// charts over the streams, the tables and per timeline a per-stream Gantt chart of launches.
class SsspView final : public SectionView {
public:
    SsspView(SsspComparison comparison, std::string dir);
    void print_text(std::ostream& out) const override;
    void add_json(nlohmann::ordered_json& top) const override;
    std::string report_part() const override;

private:
    SsspComparison comparison_;
    std::string dir_;
};

/// Compares sssp/ (validate_sssp: 75 configurations, minutes), skipped without sssp/runs.csv.
class SsspSection final : public ValidationSection {
public:
    std::string name() const override { return "sssp"; }
    std::string description() const override;
    std::string input() const override { return "sssp/runs.csv"; }
    std::unique_ptr<SectionView> run(const std::string& data_dir, const SectionSettings& settings) const override;
};

}  // namespace gpusched::validation
