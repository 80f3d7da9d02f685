// The clusters section: cluster-launch replays (span, blocks per GPC, active clusters) as text, JSON and a report part.
#include "experiments/clusters/view.h"

#include <algorithm>
#include <filesystem>

#include "gpusched/validation/section_registry.h"
#include "gpusched/validation/table_columns.h"
#include "grouped_replay.h"
#include "report_html.h"

namespace gpusched::validation {

namespace {

int first_waves_as_measured(const std::vector<ClusterCase>& cases) {
    return static_cast<int>(std::count_if(cases.begin(), cases.end(), [](const ClusterCase& c) {
        return c.first_wave_clusters > 0 && c.first_wave_same == c.first_wave_clusters;
    }));
}

/// A row per case: text, JSON "cases" and the report's table.
const TableColumns<ClusterCase>& cluster_columns() {
    using C = ClusterCase;
    static const auto columns = TableColumns<C>::joined({
        {
            text_column<C>({"case", "case", "case"}, &C::name),
            integer_column<C>({"cluster", "cluster", "cluster_size"}, &C::cluster_size),
            text_column<C>({"start", "start", "start"}, &C::start, Align::right),
            shown_column<C>({"first_wave", "first wave: same SMs", ""},
                            [](const C& c) { return std::to_string(c.first_wave_same) + "/" + std::to_string(c.first_wave_clusters); })
                .in_html_as([](const C& c) { return std::to_string(c.first_wave_same) + " / " + std::to_string(c.first_wave_clusters); })
                .red_when([](const C& c) { return c.first_wave_same != c.first_wave_clusters; }),
            json_column<C>("first_wave_clusters", &C::first_wave_clusters),
            json_column<C>("first_wave_same_sms", &C::first_wave_same),
        },
        replayed_span_columns<C>(),
        {
            integer_column<C>({"other_gpc", "blocks in another GPC", "blocks_in_other_gpc"}, &C::blocks_in_other_gpc)
                .red_when([](const C& c) { return c.has_repeats && !c.within_repeats; }),
            json_column<C>("largest_gpc_difference", &C::largest_gpc_difference),
            text_column<C>({"repeats", "repetitions: median / max", "repetitions_blocks_in_other_gpc"}, &C::repeats, Align::right),
            json_column<C>("within_repetitions", &C::within_repeats),
            shown_column<C>({"active_api/calc/sim", "active clusters: API / calculator / replay", ""},
                            [](const C& c) {
                                return std::to_string(c.measured_active) + "/" + std::to_string(c.computed_active) + "/" +
                                       std::to_string(c.simulated_peak);
                            })
                .in_html_as([](const C& c) {
                    return std::to_string(c.measured_active) + " / " + std::to_string(c.computed_active) + " / " +
                           std::to_string(c.simulated_peak);
                })
                .red_when([](const C& c) { return c.measured_active != c.computed_active; }),
            json_column<C>("max_active_clusters_measured", &C::measured_active),
            json_column<C>("max_active_clusters_computed", &C::computed_active),
            json_column<C>("max_active_clusters_simulated", &C::simulated_peak),
        },
    });
    return columns;
}

}  // namespace

ClustersView::ClustersView(std::vector<ClusterCase> cases, std::string dir, std::string gpu, std::string occupancy)
    : cases_(std::move(cases)), dir_(std::move(dir)), gpu_(std::move(gpu)), occupancy_(std::move(occupancy)) {}

CommandHint ClustersView::cluster_occupancy() { return {"occupancy", {{"cluster", ""}}}; }

void ClustersView::print_text(std::ostream& out) const {
    out << "\nclusters: cluster launches of " << dir_ << " replayed on " << gpu_
        << " (cluster dispatch in the GPC groups of clusters.groups)\n";
    cluster_columns().print_text(out, cases_);
    for (const auto& c : cases_) out << c.text_windows;
    const int within = cases_within_repetitions(cases_);
    out << "start: the replay starts where the measured launch did: GPC/small group (clusters.start_group / "
           "start_small_group, read off its first clusters) or, for clusters of one block, the dispatch walk's ROW:LEAD; "
           "first_wave: clusters of the measured first wave the replay put on the same SMs\n"
           "other_gpc: blocks to move for the simulated blocks per GPC group to equal the measured ones; repeats: "
           "median/max of the same count for later repetitions of the case on the GPU (its run-to-run spread), "
           "repeats_us their spans; active: cudaOccupancyMaxActiveClusters / "
        << occupancy_ << " / most clusters resident at once in the replay\n"
        << cases_.size() << " cases: " << cases_within_2_percent(cases_) << " within 2% of the measured span (worst "
        << fixed(worst_error_percent(cases_), 2) << "%), " << first_waves_as_measured(cases_)
        << " with the whole first wave on the measured SMs, " << within << " with blocks per GPC within the repetitions' spread\n";
}

void ClustersView::add_json(nlohmann::ordered_json& top) const {
    nlohmann::ordered_json j = replayed_cases_json(cluster_columns(), cases_);
    j["first_waves_as_measured"] = first_waves_as_measured(cases_);
    top["clusters"] = j;
}

std::string ClustersView::report_part() const {
    return replayed_cases_html("Thread-block clusters",
                               " cluster launches of 20 us blocks measured on the GPU, replayed with their measured "
                               "durations and cluster dispatch (docs/scheduling.md \"Thread-block clusters\")",
                               cluster_columns(), cases_);
}

std::string ClustersSection::description() const {
    return "cluster-launch timelines replayed with cluster dispatch: span, blocks per GPC, active clusters";
}

std::unique_ptr<SectionView> ClustersSection::run(const std::string& data_dir, const SectionSettings& settings) const {
    const std::string dir = (std::filesystem::path(data_dir) / "clusters").string();
    return std::make_unique<ClustersView>(validate_clusters(dir, settings.gpu, settings.replay_policy, settings.keep_blocks),
                                          dir, settings.gpu.name, settings.spell(ClustersView::cluster_occupancy()));
}

namespace {
const SectionRegistration clusters_registration{110, [] { return std::make_unique<ClustersSection>(); }};
}  // namespace

}  // namespace gpusched::validation
