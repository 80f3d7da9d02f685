// The `placement` section of gpusched validate: measured per-block timelines replayed with their measured durations.
#pragma once

#include <string>
#include <vector>

#include "experiments/placement/comparison.h"
#include "gpusched/validation/section.h"

namespace gpusched::validation {

/// The directory of placement timelines: `data_dir`/placement when that is a directory, else
/// `data_dir` itself (a directory of timeline CSVs). validate's JSON reports it as "data".
std::string placement_dir(const std::string& data_dir);

/// The replayed cases: a table with the bottom line (cases within 1% of the measured span,
/// cases with every block on its measured SM, the worst span error); JSON keys "cases" and the
/// bottom line, present (0) even without cases; in the report a table and per case the measured
/// and simulated per-SM Gantt charts (they need validate_placement(..., keep_blocks = true)).
class PlacementView final : public SectionView {
public:
    /// `reproduce`: the command that replays one case with the walk's start (SectionSettings::spell).
    PlacementView(std::vector<PlacementComparison> cases, std::string dir, std::string gpu, std::string policy,
                  std::string reproduce = spell_as_keys(reproduce_case()));
    /// The simulation that reproduces one case: its replay, policy walk from the case's start, its block shape.
    static CommandHint reproduce_case();
    void print_text(std::ostream& out) const override;
    void add_json(nlohmann::ordered_json& top) const override;
    std::string report_part() const override;

private:
    std::vector<PlacementComparison> cases_;
    std::string dir_;
    std::string gpu_;
    std::string policy_;
    std::string reproduce_;
};

/// Replays placement_dir(data_dir) with the replay policy; a missing directory is run()'s InputError.
class PlacementSection final : public ValidationSection {
public:
    std::string name() const override { return "placement"; }
    std::string description() const override;
    std::string input() const override { return "placement"; }
    bool skipped_when_missing() const override { return false; }
    std::unique_ptr<SectionView> run(const std::string& data_dir, const SectionSettings& settings) const override;
    std::unique_ptr<SectionView> view_when_skipped() const override;
};

}  // namespace gpusched::validation
