// `gpusched validate DATA_DIR`: measured placement timelines, APSP curves and block timelines, the series table, SpMV, n x SSSP and streamcluster against the simulation.
#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/scheduler/registry.h"
#include "gpusched/support/input_error.h"
#include "gpusched/validation/apsp_timeline_validation.h"
#include "gpusched/validation/curve_validation.h"
#include "gpusched/validation/placement_validation.h"
#include "gpusched/validation/series_validation.h"
#include "gpusched/validation/spmv_validation.h"
#include "gpusched/validation/sssp_validation.h"
#include "gpusched/validation/streamcluster_validation.h"
#include "gpusched/validation/validation_report.h"
#include "table.h"
#include "validate_workloads.h"

namespace gpusched::cli {

namespace {

struct ValidateOptions {
    std::string dir;
    std::string gpu = "h100";
    std::string policy;  ///< empty: placement_policy() / the default policy
    bool json = false;
    std::string report;
    std::vector<std::string> sections{"all"};
};

constexpr std::array<const char*, 7> kSections{"placement", "curves", "series", "spmv", "sssp", "streamcluster",
                                               "apsp-timelines"};

/// Whether `name` is among the --sections; InputError for an unknown section.
bool wanted(const ValidateOptions& o, const std::string& name) {
    bool found = false;
    for (const auto& s : o.sections) {
        if (s != "all" && std::find(kSections.begin(), kSections.end(), s) == kSections.end())
            throw InputError("--sections: unknown section '" + s +
                             "' (expected all, placement, curves, series, spmv, sssp, streamcluster or apsp-timelines)");
        found = found || s == "all" || s == name;
    }
    return found;
}

/// Whether to run section `name` whose input is the file (or directory) `input`: wanted and present. A section
/// named in --sections whose input is missing is an InputError naming the file; one that only
/// "all" asked for is skipped with a note on stderr.
bool run_section(const ValidateOptions& o, const std::string& name, const std::string& input) {
    if (!wanted(o, name)) return false;
    if (std::filesystem::exists(input)) return true;
    if (std::find(o.sections.begin(), o.sections.end(), name) != o.sections.end())
        throw InputError("--sections " + name + ": no measurements at '" + input + "'");
    std::cerr << "gpusched validate: no " << name << " section: '" << input << "' does not exist\n";
    return false;
}

/// The placement table's bottom line: cases within 1% of the measured span, cases with every
/// block on its measured SM, and the worst span error.
struct PlacementTotals {
    int within_1 = 0;
    int exact = 0;
    double worst = 0;
};

PlacementTotals placement_totals(const std::vector<validation::PlacementComparison>& results) {
    PlacementTotals t;
    for (const auto& r : results) {
        t.within_1 += std::abs(r.error_percent) <= 1.0 ? 1 : 0;
        t.exact += r.misplaced == 0 ? 1 : 0;
        t.worst = std::max(t.worst, std::abs(r.error_percent));
    }
    return t;
}

void print_placement(const std::vector<validation::PlacementComparison>& results, const std::string& dir,
                     const std::string& gpu, const std::string& policy);
void print_curves(const std::vector<validation::CurveComparison>& curves, const std::string& curve_csv);
void print_series(const validation::SeriesComparison& s, const std::string& csv);

/// The placement replay's policy: --policy, else `walk` where the GPU has a measured
/// dispatch walk (the replay reads each case's start state off its first blocks).
std::string placement_policy(const ValidateOptions& o, const hw::GpuSpec& gpu) {
    if (!o.policy.empty()) return o.policy;
    return gpu.dispatch_walk ? "walk" : scheduler::default_policy();
}

void run_validate(ValidateOptions o) {
    const hw::GpuSpec gpu = hw::resolve_gpu(o.gpu);
    const std::string replay_policy = placement_policy(o, gpu);
    if (o.policy.empty()) o.policy = scheduler::default_policy();
    const std::string placement = (std::filesystem::path(o.dir) / "placement").string();
    const std::string dir = std::filesystem::is_directory(placement) ? placement : o.dir;
    wanted(o, "all");  // rejects unknown sections before any work
    std::ofstream report_file;
    if (!o.report.empty()) {
        report_file.open(o.report, std::ios::binary);
        if (!report_file) throw InputError("--report: cannot write '" + o.report + "'");
    }
    const auto results = wanted(o, "placement") ? validation::validate_placement(dir, gpu, replay_policy, !o.report.empty())
                                                : std::vector<validation::PlacementComparison>{};
    const std::string curve_csv = (std::filesystem::path(o.dir) / "curves").string();  // apsp_minplus.csv, apsp_fw.csv
    const auto curves = wanted(o, "curves") ? validation::validate_curve_dir(curve_csv, gpu, o.policy)
                                            : std::vector<validation::CurveComparison>{};
    const std::string series_csv = (std::filesystem::path(o.dir) / "curves" / "binomial.csv").string();
    std::optional<validation::SeriesComparison> series;
    if (run_section(o, "series", series_csv))
        series = validation::validate_series(series_csv, gpu, o.policy);
    const std::string spmv_dir = (std::filesystem::path(o.dir) / "spmv").string();
    std::optional<validation::SpmvComparison> spmv;
    if (run_section(o, "spmv", spmv_dir + "/runs.csv"))
        spmv = validation::validate_spmv(spmv_dir, gpu, o.policy, !o.report.empty());
    const std::string sssp_dir = (std::filesystem::path(o.dir) / "sssp").string();
    std::optional<validation::SsspComparison> sssp;
    if (run_section(o, "sssp", sssp_dir + "/runs.csv"))
        sssp = validation::validate_sssp(sssp_dir, gpu, o.policy);
    const std::string streamcluster_dir = (std::filesystem::path(o.dir) / "streamcluster").string();
    std::optional<validation::StreamclusterComparison> streamcluster;
    if (run_section(o, "streamcluster", streamcluster_dir + "/runs.csv"))
        streamcluster = validation::validate_streamcluster(streamcluster_dir, gpu, o.policy,
                                                           validation::kStreamclusterDocumentedKeys, !o.report.empty());
    const std::string apsp_timeline_dir = (std::filesystem::path(o.dir) / "apsp_timeline").string();
    std::optional<validation::ApspTimelineComparison> apsp_timelines;
    if (run_section(o, "apsp-timelines", apsp_timeline_dir))
        apsp_timelines = validation::validate_apsp_timelines(apsp_timeline_dir, gpu, replay_policy, !o.report.empty());
    if (!o.report.empty()) {
        report_file << validation::render_validation_report(results, curves, series, {o.dir, o.gpu, o.policy == replay_policy ? o.policy : o.policy + "; placement replay: " + replay_policy}, spmv, sssp,
                                                            streamcluster, apsp_timelines);
        if (!report_file.flush()) throw InputError("--report: cannot write '" + o.report + "'");
    }
    const PlacementTotals totals = placement_totals(results);
    if (o.json) {
        nlohmann::ordered_json j;
        j["data"] = dir;
        j["gpu"] = gpu.name;
        j["policy"] = o.policy;
        j["placement_policy"] = replay_policy;
        for (const auto& r : results)
            j["cases"].push_back({{"case", r.name}, {"blocks", r.blocks}, {"measured_us", r.measured_us},
                                  {"simulated_us", r.simulated_us}, {"error_percent", r.error_percent},
                                  {"misplaced_blocks", r.misplaced}, {"measured_waves", r.measured_waves},
                                  {"simulated_waves", r.simulated_waves}, {"start_ks_distance", r.start_distance}, {"walk_start", r.walk_start},
                                  {"h100_repeat_distances", r.repetition_distances}});
        j["within_1_percent"] = totals.within_1;
        j["exact_placements"] = totals.exact;
        j["worst_error_percent"] = totals.worst;
        for (const auto& c : curves) {
            nlohmann::ordered_json curve{{"kernel", c.kernel},
                                         {"issue", c.issue},
                                         {"block", c.block},
                                         {"reference_n", c.reference_n},
                                         {"factor", c.factor},
                                         {"median_abs_error_percent", c.median_abs_error_percent},
                                         {"max_abs_error_percent", c.max_abs_error_percent},
                                         {"measured_jumps_located", c.measured_jumps_located},
                                         {"simulated_jumps_located", c.simulated_jumps_located}};
            for (const auto& jump : c.measured_jumps) curve["measured_jumps"].push_back(jump.n);
            for (const auto& jump : c.simulated_jumps) curve["simulated_jumps"].push_back(jump.n);
            if (c.repeat_sweeps > 0) {
                curve["repeat_sweeps"] = c.repeat_sweeps;
                curve["reproducible_jumps"] = nlohmann::ordered_json::array();
                for (const auto& jump : c.reproducible_jumps) curve["reproducible_jumps"].push_back(jump.n);
                curve["reproducible_jumps_located"] = c.reproducible_jumps_located;
            }
            for (const auto& p : c.points)
                curve["points"].push_back({{"n", p.n}, {"measured_us", p.measured_us}, {"simulated_us", p.simulated_us},
                                           {"calibrated_us", p.calibrated_us}, {"error_percent", p.error_percent}});
            j["curves"].push_back(curve);
        }
        if (series) {
            nlohmann::ordered_json s{{"reference_blocks", series->reference_blocks},
                                     {"reference_threads", series->reference_threads},
                                     {"factor", series->factor},
                                     {"median_abs_error_percent", series->median_abs_error_percent},
                                     {"max_abs_error_percent", series->max_abs_error_percent},
                                     {"work_keys", series->work_keys},
                                     {"work_file", series->work_file}};
            for (const auto& p : series->points)
                s["points"].push_back({{"blocks", p.blocks}, {"threads", p.threads}, {"terms", p.terms},
                                       {"measured_us", p.measured_us}, {"simulated_us", p.simulated_us},
                                       {"calibrated_us", p.calibrated_us}, {"error_percent", p.error_percent}});
            j["series"] = s;
        }
        if (spmv) j["spmv"] = spmv_json(*spmv);
        if (sssp) j["sssp"] = sssp_json(*sssp);
        if (streamcluster) j["streamcluster"] = streamcluster_json(*streamcluster);
        if (apsp_timelines) j["apsp_timelines"] = apsp_timelines_json(*apsp_timelines);
        std::cout << j.dump(2) << "\n";
        return;
    }
    if (!results.empty()) print_placement(results, dir, gpu.name, replay_policy);
    print_curves(curves, curve_csv);
    if (series) print_series(*series, series_csv);
    if (spmv) print_spmv(std::cout, *spmv, spmv_dir);
    if (sssp) print_sssp(std::cout, *sssp, sssp_dir);
    if (streamcluster) print_streamcluster(std::cout, *streamcluster, streamcluster_dir);
    if (apsp_timelines) print_apsp_timelines(std::cout, *apsp_timelines, apsp_timeline_dir, replay_policy);
}

/// "median/max" of the H100's repetition distances, or "-" when there are none.
std::string repeat_spread_text(const validation::PlacementComparison& r) {
    const auto spread = validation::repetition_spread(r);
    if (!spread) return "-";
    return fixed(spread->median, spread->median == std::floor(spread->median) ? 0 : 1) + "/" + std::to_string(spread->max);
}

void print_placement(const std::vector<validation::PlacementComparison>& results, const std::string& dir,
                     const std::string& gpu, const std::string& policy) {
    const PlacementTotals totals = placement_totals(results);
    std::cout << "placement replay of " << dir << " on " << gpu << " with " << policy << "\n";
    const bool walk = std::any_of(results.begin(), results.end(), [](const auto& r) { return !r.walk_start.empty(); });
    std::vector<std::string> header{"case", "blocks", "measured_us", "simulated_us", "error_%", "misplaced", "waves", "start_ks"};
    std::vector<bool> right{false, true, true, true, true, true, true, true};
    if (walk) {
        header.push_back("walk_start");
        right.push_back(true);
    }
    const bool spread = std::any_of(results.begin(), results.end(), [](const auto& r) { return !r.repetition_distances.empty(); });
    if (spread) {
        header.push_back("h100_repeats");
        right.push_back(true);
    }
    TextTable table(header, right);
    for (const auto& r : results) {
        std::vector<std::string> row{r.name, std::to_string(r.blocks), fixed(r.measured_us, 3), fixed(r.simulated_us, 3),
                                     fixed(r.error_percent, 2), std::to_string(r.misplaced),
                                     std::to_string(r.measured_waves) + "/" + std::to_string(r.simulated_waves),
                                     fixed(r.start_distance, 3)};
        if (walk) row.push_back(r.walk_start);
        if (spread) row.push_back(repeat_spread_text(r));
        table.add_row(row);
    }
    table.print(std::cout);
    if (walk)
        std::cout << "walk_start: ROW:LEAD where each case's launch 0 began its dispatch walk (read off its blocks 0 "
                     "and 8; reproduce one case with gpusched simulate --policy walk --walk-start ROW:LEAD --replay "
                     "CASE.csv --threads T --smem S)\n";
    if (spread) {
        const int within = static_cast<int>(std::count_if(results.begin(), results.end(), [](const auto& r) {
            const auto s = validation::repetition_spread(r);
            return s && r.misplaced <= s->max;
        }));
        std::cout << "h100_repeats: median/max over the repetitions of a later run of each case of the blocks on another "
                     "SM than in the measured timeline (the H100's own run-to-run spread); "
                  << within << " cases' misplaced blocks are within it\n";
    }
    std::cout << results.size() << " cases: " << totals.within_1 << " within 1% of the measured span (worst "
              << fixed(totals.worst, 2) << "%), " << totals.exact << " with every block on its measured SM\n";
}

void print_curves(const std::vector<validation::CurveComparison>& curves, const std::string& curve_csv) {
    if (curves.empty()) return;
    std::cout << "\nruntime curves of " << curve_csv << " (shared execution, one-point calibration at the reference n)\n";
    TextTable curve_table({"kernel", "issue", "block", "points", "ref_n", "factor", "median_|err|_%", "max_|err|_%",
                           "measured_jumps", "simulated_jumps", "reproducible_jumps"},
                          {false, false, true, true, true, true, true, true, false, false, false});
    auto jump_list = [](const std::vector<validation::CurveJump>& jumps, int located) {
        std::string s = std::to_string(located) + "/" + std::to_string(jumps.size()) + " located:";
        for (const auto& j : jumps) s += " " + std::to_string(j.n);
        return s;
    };
    for (const auto& c : curves)
        curve_table.add_row({c.kernel, c.issue, std::to_string(c.block), std::to_string(c.points.size()),
                             std::to_string(c.reference_n), fixed(c.factor, 3), fixed(c.median_abs_error_percent, 1),
                             fixed(c.max_abs_error_percent, 1), jump_list(c.measured_jumps, c.measured_jumps_located),
                             jump_list(c.simulated_jumps, c.simulated_jumps_located),
                             c.repeat_sweeps == 0 ? "-" : jump_list(c.reproducible_jumps, c.reproducible_jumps_located)});
    curve_table.print(std::cout);
    std::cout << "A jump is a step of more than 4% from n-1 to n; located = the other curve jumps within one step.\n"
                 "reproducible_jumps: the measured jumps that every repeated sweep (curves/repeats/) has at the same n too.\n"
                 "issue: host-calls = launched by the host inside the timed region; queued = every launch queued first.\n";
}

void print_series(const validation::SeriesComparison& s, const std::string& csv) {
    std::cout << "\nbinomial series of " << csv << ": error % after one-point calibration at " << s.reference_blocks
              << " blocks x " << s.reference_threads << " threads (factor " << fixed(s.factor, 3) << ")\n";
    if (!s.work_keys.empty()) std::cout << "work keys from " << s.work_file << ": " << s.work_keys << "\n";
    std::vector<int> blocks;
    for (const auto& p : s.points)
        if (std::find(blocks.begin(), blocks.end(), p.blocks) == blocks.end()) blocks.push_back(p.blocks);
    std::sort(blocks.begin(), blocks.end());
    std::vector<std::string> head{"threads"};
    for (int b : blocks) head.push_back(std::to_string(b));
    TextTable grid(head, std::vector<bool>(head.size(), true));
    for (std::size_t i = 0; i < s.points.size();) {
        const int threads = s.points[i].threads;
        std::vector<std::string> row{std::to_string(threads)};
        for (int b : blocks) {
            const bool here = i < s.points.size() && s.points[i].threads == threads && s.points[i].blocks == b;
            row.push_back(here ? fixed(s.points[i++].error_percent, 1) : "-");
        }
        grid.add_row(row);
        while (i < s.points.size() && s.points[i].threads == threads) ++i;
    }
    grid.print(std::cout);
    std::cout << "median |error| " << fixed(s.median_abs_error_percent, 1) << "%, max " << fixed(s.max_abs_error_percent, 1)
              << "% (columns: blocks)\n";
}

}  // namespace

void add_validate_command(CLI::App& app) {
    auto o = std::make_shared<ValidateOptions>();
    auto* cmd = app.add_subcommand("validate", "Compare simulations with measured timelines (validation/data/<gpu>)");
    cmd->add_option("DATA_DIR", o->dir, "Measurement directory, e.g. validation/data/h100 (its placement/ timelines, curves/, spmv/, sssp/, streamcluster/ and apsp_timeline/ data)")
        ->required();
    cmd->add_option("--gpu", o->gpu, "Preset name or GPU YAML file to simulate with")->capture_default_str();
    cmd->add_option("--policy", o->policy,
                    "Dispatch policy (default: most-room; the placement replay uses walk where the GPU has a "
                    "measured topology.dispatch_walk, starting each case where its measured launch did)");
    cmd->add_flag("--json", o->json, "Print one JSON object");
    cmd->add_option("--sections", o->sections,
                    "Comparisons to run, comma-separated: all, placement, curves, series, spmv, sssp, streamcluster, "
                    "apsp-timelines (sssp "
                    "simulates 75 configurations: minutes)")
        ->delimiter(',')
        ->capture_default_str();
    cmd->add_option("--report", o->report,
                    "Also write a self-contained HTML report (tables, measured vs simulated per-SM Gantt charts, curves)");
    cmd->callback([o] { run_validate(*o); });
}

}  // namespace gpusched::cli
