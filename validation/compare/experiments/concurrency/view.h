// The `concurrency` section of gpusched validate: concurrent kernels on prioritised streams, replayed against the H100.
#pragma once

#include <string>
#include <vector>

#include "gpusched/validation/section.h"
#include "experiments/concurrency/comparison.h"

namespace gpusched::validation {

/// Each launch's first block start and last block end, measured and simulated, as a table with
/// the errors in % of the case's span and the bottom line (launches whose start and end are both
/// within 5%, the worst error); JSON key "concurrency"; in the report the table and per case the
/// measured and simulated per-SM Gantt charts, coloured by launch.
class ConcurrencyView final : public SectionView {
public:
    ConcurrencyView(std::vector<ConcurrencyCase> cases, std::string dir, std::string gpu, std::string policy);
    void print_text(std::ostream& out) const override;
    void add_json(nlohmann::ordered_json& top) const override;
    std::string report_part() const override;

private:
    std::vector<ConcurrencyCase> cases_;
    std::string dir_;
    std::string gpu_;
    std::string policy_;
};

/// Replays DATA/concurrency (the runner's `concurrency` experiment) with the replay policy.
class ConcurrencySection final : public ValidationSection {
public:
    std::string name() const override { return "concurrency"; }
    std::string description() const override;
    std::string input() const override { return "concurrency/cases.csv"; }
    std::unique_ptr<SectionView> run(const std::string& data_dir, const SectionSettings& settings) const override;
};

}  // namespace gpusched::validation
