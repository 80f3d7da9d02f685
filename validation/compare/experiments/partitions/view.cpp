// The partitions section: green-context replays in SM partitions (span, blocks per SM) as text, JSON and a report part.
#include "experiments/partitions/view.h"

#include <filesystem>

#include "gpusched/validation/section_registry.h"
#include "gpusched/validation/table_columns.h"
#include "grouped_replay.h"
#include "report_html.h"

namespace gpusched::validation {

namespace {

std::string sizes_text(const std::vector<int>& sizes) {
    std::string out;
    for (int k : sizes) out += (out.empty() ? "" : "+") + std::to_string(k);
    return out;
}

/// A row per case: text, JSON "cases" and the report's table.
const TableColumns<PartitionCase>& partition_columns() {
    using C = PartitionCase;
    static const auto columns = TableColumns<C>::joined({
        {
            text_column<C>({"case", "case", "case"}, &C::name),
            shown_column<C>({"partitions", "partitions", "partitions"}, [](const C& c) { return sizes_text(c.partitions); })
                .in_json_as([](const C& c) { return nlohmann::ordered_json(c.partitions); }),
        },
        replayed_span_columns<C>(),
        {
            integer_column<C>({"other_sm", "blocks on another SM", "blocks_on_other_sm"}, &C::blocks_on_other_sm)
                .red_when([](const C& c) { return c.has_repeats && !c.within_repeats; }),
            json_column<C>("largest_sm_difference", &C::largest_sm_difference),
            text_column<C>({"repeats", "repetitions: median / max", "repetitions_blocks_on_other_sm"}, &C::repeats, Align::right),
            json_column<C>("within_repetitions", &C::within_repeats),
            integer_column<C>({"outside", "measured blocks outside the partition", "measured_outside_partition"}, &C::measured_outside)
                .red_when([](const C& c) { return c.measured_outside > 0; }),
        },
    });
    return columns;
}

}  // namespace

PartitionsView::PartitionsView(std::vector<PartitionCase> cases, std::string dir, std::string gpu)
    : cases_(std::move(cases)), dir_(std::move(dir)), gpu_(std::move(gpu)) {}

void PartitionsView::print_text(std::ostream& out) const {
    out << "\npartitions: green-context launches of " << dir_ << " replayed on " << gpu_
        << " in SM partitions (partitions.splits, topology.partition_order)\n";
    partition_columns().print_text(out, cases_);
    for (const auto& c : cases_) out << c.text_windows;
    const int within = cases_within_repetitions(cases_);
    out << "other_sm: blocks to move for the simulated blocks per SM to equal the measured ones; repeats: median/max "
           "of the same count for later repetitions of the case on the GPU (its run-to-run spread), repeats_us their "
           "spans; outside: measured blocks on an SM the model does not give their partition\n"
        << cases_.size() << " cases: " << cases_within_2_percent(cases_) << " within 2% of the measured span (worst "
        << fixed(worst_error_percent(cases_), 2) << "%), " << within << " with blocks per SM within the repetitions' spread\n";
}

void PartitionsView::add_json(nlohmann::ordered_json& top) const {
    top["partitions"] = replayed_cases_json(partition_columns(), cases_);
}

std::string PartitionsView::report_part() const {
    return replayed_cases_html("SM partitions (green contexts)",
                               " launches measured inside green contexts, replayed with their measured durations in "
                               "the modelled partitions (docs/scheduling.md \"SM partitions\")",
                               partition_columns(), cases_);
}

std::string PartitionsSection::description() const {
    return "green-context timelines replayed in SM partitions: span, blocks per SM, per-launch start and end";
}

std::unique_ptr<SectionView> PartitionsSection::run(const std::string& data_dir, const SectionSettings& settings) const {
    const std::string dir = (std::filesystem::path(data_dir) / "partitions").string();
    return std::make_unique<PartitionsView>(
        validate_partitions(dir, settings.gpu, settings.replay_policy, settings.keep_blocks), dir, settings.gpu.name);
}

namespace {
const SectionRegistration partitions_registration{120, [] { return std::make_unique<PartitionsSection>(); }};
}  // namespace

}  // namespace gpusched::validation
