// The placement section: replayed timelines as a text table, JSON and report Gantt charts.
#include "experiments/placement/view.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "gpusched/charts/svg_format.h"
#include "gpusched/validation/section_registry.h"
#include "gpusched/validation/table_columns.h"
#include "report_html.h"

namespace gpusched::validation {

namespace {

/// The table's bottom line: cases within 1% of the measured span, cases with every block on
/// its measured SM, and the worst span error.
struct PlacementTotals {
    int within_1 = 0;
    int exact = 0;
    double worst = 0;
};

PlacementTotals placement_totals(const std::vector<PlacementComparison>& results) {
    PlacementTotals t;
    for (const auto& r : results) {
        t.within_1 += std::abs(r.error_percent) <= 1.0 ? 1 : 0;
        t.exact += r.misplaced == 0 ? 1 : 0;
        t.worst = std::max(t.worst, std::abs(r.error_percent));
    }
    return t;
}

/// "median/max" of the H100's repetition distances, or "-" when there are none.
std::string repeat_spread_text(const PlacementComparison& r) {
    const auto spread = repetition_spread(r);
    if (!spread) return "-";
    return fixed(spread->median, spread->median == std::floor(spread->median) ? 0 : 1) + "/" + std::to_string(spread->max);
}

/// A row per case: text, JSON "cases" and the report's table. The text table shows walk_start and
/// h100_repeats only where some case has them (`walk`, `spread`).
TableColumns<PlacementComparison> placement_columns(bool walk, bool spread) {
    using P = PlacementComparison;
    return TableColumns<P>{
        text_column<P>({"case", "case", "case"}, &P::name).in_html_markup([](const P& c) {
            return "<a href=\"#" + charts::escape_xml(c.name) + "\">" + charts::escape_xml(c.name) + "</a>";
        }),
        integer_column<P>({"blocks", "blocks", "blocks"}, &P::blocks),
        decimal_column<P>({"measured_us", "measured us", "measured_us"}, &P::measured_us, 3),
        decimal_column<P>({"simulated_us", "simulated us", "simulated_us"}, &P::simulated_us, 3),
        decimal_column<P>({"error_%", "error %", "error_percent"}, &P::error_percent, 2)
            .red_when([](const P& c) { return std::abs(c.error_percent) > 2.0; }),
        integer_column<P>({"misplaced", "blocks on another SM", "misplaced_blocks"}, &P::misplaced).red_when([](const P& c) {
            const auto spread = repetition_spread(c);
            return spread && c.misplaced > spread->max;
        }),
        shown_column<P>({"waves", "waves measured / simulated", ""},
                        [](const P& r) { return std::to_string(r.measured_waves) + "/" + std::to_string(r.simulated_waves); })
            .in_html_as([](const P& c) { return std::to_string(c.measured_waves) + " / " + std::to_string(c.simulated_waves); }),
        json_column<P>("measured_waves", &P::measured_waves),
        json_column<P>("simulated_waves", &P::simulated_waves),
        decimal_column<P>({"start_ks", "start-time KS distance", "start_ks_distance"}, &P::start_distance, 3),
        text_column<P>({walk ? "walk_start" : "", "walk start", "walk_start"}, &P::walk_start, Align::right)
            .in_html_as([](const P& c) { return c.walk_start.empty() ? "-" : c.walk_start; }),
        shown_column<P>({spread ? "h100_repeats" : "", "H100 repetitions: blocks on another SM, median / max", ""},
                        repeat_spread_text)
            .in_html_as([](const P& c) {
                const auto spread = repetition_spread(c);
                return spread ? fixed(spread->median, 1) + " / " + std::to_string(spread->max) : std::string("-");
            }),
        json_column<P>("h100_repeat_distances", &P::repetition_distances),
    };
}

}  // namespace

std::string placement_dir(const std::string& data_dir) {
    const std::string placement = (std::filesystem::path(data_dir) / "placement").string();
    return std::filesystem::is_directory(placement) ? placement : data_dir;
}

PlacementView::PlacementView(std::vector<PlacementComparison> cases, std::string dir, std::string gpu, std::string policy,
                             std::string reproduce)
    : cases_(std::move(cases)), dir_(std::move(dir)), gpu_(std::move(gpu)), policy_(std::move(policy)),
      reproduce_(std::move(reproduce)) {}

CommandHint PlacementView::reproduce_case() {
    return {"simulate", {{"policy", "walk"}, {"walk_start", "ROW:LEAD"}, {"replay", "CASE.csv"}, {"threads", "T"}, {"smem", "S"}}};
}

void PlacementView::print_text(std::ostream& out) const {
    if (cases_.empty()) return;
    const auto& results = cases_;
    const PlacementTotals totals = placement_totals(results);
    out << "placement replay of " << dir_ << " on " << gpu_ << " with " << policy_ << "\n";
    const bool walk = std::any_of(results.begin(), results.end(), [](const auto& r) { return !r.walk_start.empty(); });
    const bool spread = std::any_of(results.begin(), results.end(), [](const auto& r) { return !r.repetition_distances.empty(); });
    placement_columns(walk, spread).print_text(out, results);
    if (walk)
        out << "walk_start: ROW:LEAD where each case's launch 0 began its dispatch walk (read off its blocks 0 "
               "and 8; reproduce one case with gpusched "
            << reproduce_ << ")\n";
    if (spread) {
        const int within = static_cast<int>(std::count_if(results.begin(), results.end(), [](const auto& r) {
            const auto s = repetition_spread(r);
            return s && r.misplaced <= s->max;
        }));
        out << "h100_repeats: median/max over the repetitions of a later run of each case of the blocks on another "
               "SM than in the measured timeline (the H100's own run-to-run spread); "
            << within << " cases' misplaced blocks are within it\n";
    }
    out << results.size() << " cases: " << totals.within_1 << " within 1% of the measured span (worst "
        << fixed(totals.worst, 2) << "%), " << totals.exact << " with every block on its measured SM\n";
}

void PlacementView::add_json(nlohmann::ordered_json& top) const {
    const PlacementTotals totals = placement_totals(cases_);
    const auto columns = placement_columns(true, true);
    for (const auto& r : cases_) top["cases"].push_back(columns.json(r));
    top["within_1_percent"] = totals.within_1;
    top["exact_placements"] = totals.exact;
    top["worst_error_percent"] = totals.worst;
}

std::string PlacementView::report_part() const {
    if (cases_.empty()) return "";
    const auto& cases = cases_;
    const PlacementTotals totals = placement_totals(cases);
    std::string h = "<h2>Placement</h2>\n<p>" + std::to_string(cases.size()) + " cases, each block replayed with its "
                    "measured duration: " + std::to_string(totals.within_1) + " within 1% of the measured span, " +
                    std::to_string(totals.exact) + " with per-SM block counts exactly as measured.</p>\n";
    h += placement_columns(true, true).html(cases);
    h += "<p>Span: first block start to last block end. Blocks on another SM: how many blocks "
         "would have to move for the simulated per-SM block counts to equal the measured ones. Waves: the "
         "most blocks on one SM over the blocks that fit on an SM, rounded up. KS distance: the largest gap "
         "between the two distributions of block start times (0 = identical, 1 = disjoint). Walk start: "
         "ROW:LEAD where policy walk began the case (read off measured blocks 0 and 8). H100 repetitions: "
         "the same count for 10 repetitions of the case in a later run against this measured run, the "
         "hardware's own spread (red: the simulation is beyond its maximum).</p>\n";
    for (const auto& c : cases) {
        h += "<section id=\"" + charts::escape_xml(c.name) + "\">\n<h2>" + charts::escape_xml(c.name) + "</h2>\n<p>" +
             std::to_string(c.blocks) + " blocks; span " + fixed(c.measured_us, 3) + " us measured, " +
             fixed(c.simulated_us, 3) + " us simulated (" + fixed(c.error_percent, 2) + "%); " +
             std::to_string(c.misplaced) + " blocks on another SM.</p>\n";
        if (c.measured_blocks.empty() && c.simulated_blocks.empty()) {
            h += "<p>(no per-block timelines kept)</p>\n</section>\n";
            continue;
        }
        const std::vector<int> sms = sms_of(c.measured_blocks, c.simulated_blocks);
        h += sm_gantt(c.name + ": measured", c.measured_blocks, sms) + "\n";
        h += sm_gantt(c.name + ": simulated", c.simulated_blocks, sms) + "\n</section>\n";
    }
    return h;
}

std::string PlacementSection::description() const {
    return "measured block timelines replayed with their measured durations: span, per-SM counts, start times";
}

std::unique_ptr<SectionView> PlacementSection::run(const std::string& data_dir, const SectionSettings& settings) const {
    const std::string dir = placement_dir(data_dir);
    return std::make_unique<PlacementView>(validate_placement(dir, settings.gpu, settings.replay_policy, settings.keep_blocks),
                                           dir, settings.gpu.name, settings.replay_policy,
                                           settings.spell(PlacementView::reproduce_case()));
}

std::unique_ptr<SectionView> PlacementSection::view_when_skipped() const {
    return std::make_unique<PlacementView>(std::vector<PlacementComparison>{}, "", "", "");
}

namespace {
const SectionRegistration placement_registration{10, [] { return std::make_unique<PlacementSection>(); }};
}  // namespace

}  // namespace gpusched::validation
