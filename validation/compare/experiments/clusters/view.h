// The `clusters` section of gpusched validate: the clusters comparison as text, JSON and a report part.
#pragma once

#include <string>
#include <vector>

#include "experiments/clusters/comparison.h"
#include "gpusched/validation/section.h"

namespace gpusched::validation {

class ClustersView final : public SectionView {
public:
    /// `occupancy`: the command that computes a cluster launch's occupancy (SectionSettings::spell).
    ClustersView(std::vector<ClusterCase> cases, std::string dir, std::string gpu,
                 std::string occupancy = spell_as_keys(cluster_occupancy()));
    /// The occupancy calculator for cluster launches.
    static CommandHint cluster_occupancy();
    void print_text(std::ostream& out) const override;
    void add_json(nlohmann::ordered_json& top) const override;
    std::string report_part() const override;

private:
    std::vector<ClusterCase> cases_;
    std::string dir_;
    std::string gpu_;
    std::string occupancy_;
};

/// Replays clusters/timeline_*.csv (the runner's `clusters` experiment): span, blocks per GPC
/// (clusters.groups), active clusters; skipped without clusters/.
class ClustersSection final : public ValidationSection {
public:
    std::string name() const override { return "clusters"; }
    std::string description() const override;
    std::string input() const override { return "clusters"; }
    std::unique_ptr<SectionView> run(const std::string& data_dir, const SectionSettings& settings) const override;
};

}  // namespace gpusched::validation
