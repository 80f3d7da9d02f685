// Replay-based placement validation against measured block timelines.
#include "experiments/placement/comparison.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>

#include "gpusched/support/input_error.h"
#include "gpusched/support/yaml_fields.h"
#include "gpusched/scheduler/registry.h"
#include "gpusched/sim/simulation.h"
#include "gpusched/validation/measured_timeline.h"
#include "measured_table.h"
#include "gpusched/workloads/replay_timeline.h"

namespace gpusched::validation {

namespace {

/// First start, last end and blocks per SM.
struct Span {
    Time first = ~Time{0};
    Time last = 0;
    std::map<int, int> per_sm;
    void add(int sm, Time start, Time end) {
        first = std::min(first, start);
        last = std::max(last, end);
        ++per_sm[sm];
    }
    [[nodiscard]] double us() const { return static_cast<double>(last - first) / 1e6; }
};

class SpanRecorder final : public sim::SimObserver {
public:
    explicit SpanRecorder(bool keep) : keep_(keep) {}
    Span span;
    std::map<std::size_t, Span> per_launch;
    std::vector<Time> starts;
    std::vector<MeasuredBlock> blocks;
    void on_block_completed(const sim::BlockRecord& b) override {
        span.add(b.sm, b.start, b.end);
        per_launch[b.launch].add(b.sm, b.start, b.end);
        starts.push_back(b.start);
        if (keep_) blocks.push_back({b.launch, b.block, b.sm, b.start, b.end});
    }

private:
    bool keep_;
};

int waves(const Span& s, int blocks_per_sm) {
    int most = 0;
    for (const auto& [sm, n] : s.per_sm) most = std::max(most, n);
    return blocks_per_sm > 0 ? (most + blocks_per_sm - 1) / blocks_per_sm : 0;
}

std::vector<Time> relative_to_first(std::vector<Time> t) {
    if (t.empty()) return t;
    const Time first = *std::min_element(t.begin(), t.end());
    for (Time& x : t) x -= first;
    return t;
}

int misplaced(const Span& a, const Span& b) {
    std::map<int, int> diff = a.per_sm;
    for (const auto& [sm, n] : b.per_sm) diff[sm] -= n;
    int distance = 0;
    for (const auto& [sm, d] : diff) distance += std::abs(d);
    return distance / 2;
}

/// case -> repetition -> SM -> blocks (all launches together), from the runner's
/// per-repetition counts file of its placement experiment.
using RepetitionCounts = std::map<std::string, std::map<std::int64_t, std::map<int, int>>>;

RepetitionCounts read_repetition_counts(const std::string& path) {
    RepetitionCounts out;
    for (const auto& row : read_run_table(path, "placement repetition counts", {"case", "rep", "launch", "sm", "blocks"}))
        out[row.text("case")][row.integer("rep", 0, 1 << 20)][static_cast<int>(row.integer("sm", 0, 1 << 20))] +=
            static_cast<int>(row.integer("blocks", 0, 1 << 30));
    return out;
}

std::int64_t meta_integer(const MeasuredTimeline& t, const std::string& key) {
    const auto v = parse_integer(t.meta(key));
    if (!v || *v < 0) throw InputError(t.path + ": metadata '" + key + "' is not a non-negative integer");
    return *v;
}

}  // namespace

double ks_distance(std::vector<Time> a, std::vector<Time> b) {
    if (a.empty() || b.empty()) return 0;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    const double na = static_cast<double>(a.size());
    const double nb = static_cast<double>(b.size());
    std::size_t i = 0, j = 0;
    double worst = 0;
    while (i < a.size() && j < b.size()) {
        const Time t = std::min(a[i], b[j]);
        while (i < a.size() && a[i] == t) ++i;
        while (j < b.size() && b[j] == t) ++j;
        worst = std::max(worst, std::abs(static_cast<double>(i) / na - static_cast<double>(j) / nb));
    }
    return worst;
}

int misplaced_blocks(const std::vector<MeasuredBlock>& a, const std::vector<MeasuredBlock>& b) {
    Span sa, sb;
    for (const auto& x : a) sa.add(x.sm, x.start, x.end);
    for (const auto& x : b) sb.add(x.sm, x.start, x.end);
    return misplaced(sa, sb);
}

std::optional<RepetitionSpread> repetition_spread(const PlacementComparison& c) {
    if (c.repetition_distances.empty()) return std::nullopt;
    std::vector<int> d = c.repetition_distances;
    std::sort(d.begin(), d.end());
    const std::size_t n = d.size();
    const double median = n % 2 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2.0;
    return RepetitionSpread{median, d.back()};
}

std::optional<std::pair<int, int>> walk_start_of(const std::vector<MeasuredBlock>& blocks, const hw::DispatchWalk& walk) {
    std::optional<int> first_sm, row_sm;
    for (const auto& b : blocks) {
        if (b.launch != 0) continue;
        if (b.block == 0) first_sm = b.sm;
        if (b.block == walk.lead.size()) row_sm = b.sm;
    }
    if (!first_sm || !row_sm) return std::nullopt;
    const auto lead = std::find(walk.lead.begin(), walk.lead.end(), *first_sm);
    const auto row = std::find_if(walk.rows.begin(), walk.rows.end(), [&](const auto& r) { return r.front() == *row_sm; });
    if (lead == walk.lead.end() || row == walk.rows.end()) return std::nullopt;
    return std::pair{static_cast<int>(row - walk.rows.begin()), static_cast<int>(lead - walk.lead.begin())};
}

PlacementComparison replay_measured(const MeasuredTimeline& measured, const workloads::Application& app,
                                    const hw::GpuSpec& gpu, const sim::DispatchPolicy& policy,
                                    const std::string& policy_name, bool keep_blocks) {
    Span m;
    std::map<std::uint64_t, Span> measured_launches;
    std::vector<std::uint64_t> launch_order;  // measured launch values, in order of first appearance
    std::vector<Time> measured_starts;
    for (const auto& b : measured.blocks) {
        m.add(b.sm, b.start, b.end);
        const auto [it, added] = measured_launches.try_emplace(b.launch);
        if (added) launch_order.push_back(b.launch);
        it->second.add(b.sm, b.start, b.end);
        measured_starts.push_back(b.start);
    }
    hw::GpuSpec case_gpu = gpu;
    std::string walk_start;
    if (policy_name == "walk" && case_gpu.dispatch_walk) {
        if (const auto start = walk_start_of(measured.blocks, *case_gpu.dispatch_walk)) {
            case_gpu.dispatch_walk->start_row = start->first;
            case_gpu.dispatch_walk->lead_start = start->second;
        }
        walk_start = std::to_string(case_gpu.dispatch_walk->start_row) + ":" +
                     std::to_string(case_gpu.dispatch_walk->lead_start);
    }
    sim::Simulation simulation(case_gpu, app, policy, "fixed");  // measured durations, replayed
    SpanRecorder recorder(keep_blocks);
    simulation.observe(recorder);
    simulation.run();
    PlacementComparison c;
    c.blocks = measured.blocks.size();
    c.measured_us = m.us();
    c.simulated_us = recorder.span.us();
    c.error_percent = 100.0 * (c.simulated_us - c.measured_us) / c.measured_us;
    c.misplaced = misplaced(recorder.span, m);
    const int per_sm = simulation.occupancy().front().blocks_per_sm;
    c.measured_waves = waves(m, per_sm);
    c.simulated_waves = waves(recorder.span, per_sm);
    c.walk_start = walk_start;
    c.measured_per_sm = m.per_sm;
    c.simulated_per_sm = recorder.span.per_sm;
    if (launch_order.size() == app.launches.size() && recorder.per_launch.size() == app.launches.size()) {
        for (std::size_t k = 0; k < launch_order.size(); ++k) {
            const Span& ms = measured_launches.at(launch_order[k]);
            const Span& ss = recorder.per_launch.at(k);
            std::uint64_t blocks = 0;
            for (const auto& [sm, n] : ms.per_sm) blocks += static_cast<std::uint64_t>(n);
            c.launches.push_back({launch_order[k], blocks, ms.us(), ss.us()});
        }
    }
    c.start_distance = ks_distance(relative_to_first(measured_starts), relative_to_first(recorder.starts));
    if (keep_blocks) {
        c.measured_blocks = measured.blocks;
        c.simulated_blocks = std::move(recorder.blocks);
    }
    return c;
}

std::vector<PlacementComparison> validate_placement(const std::string& dir, const hw::GpuSpec& gpu,
                                                    const std::string& policy_name, bool keep_blocks) {
    namespace fs = std::filesystem;
    if (!fs::is_directory(dir)) throw InputError(dir + ": not a directory of measured timelines");
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().extension() == ".csv" && e.path().stem() != "runs" && e.path().stem() != "nvidia-smi")
            files.push_back(e.path());
    std::sort(files.begin(), files.end());
    if (files.empty()) throw InputError(dir + ": no timeline CSV files");
    const auto policy = scheduler::make_policy(policy_name);
    const fs::path reps_file = fs::path(dir) / ".." / "placement_reps" / "rep_counts.csv";
    const RepetitionCounts repetitions = fs::is_regular_file(reps_file) ? read_repetition_counts(reps_file.string())
                                                                        : RepetitionCounts{};
    std::vector<PlacementComparison> out;
    for (const auto& file : files) {
        const MeasuredTimeline measured = read_measured_timeline(file.string());
        const auto app = workloads::load_replay_timeline(file.string(), static_cast<int>(meta_integer(measured, "threads")),
                                                         0, meta_integer(measured, "smem"));
        PlacementComparison c = replay_measured(measured, app, gpu, *policy, policy_name, keep_blocks);
        c.name = file.stem().string();
        Span m;
        m.per_sm = c.measured_per_sm;
        if (const auto reps = repetitions.find(c.name); reps != repetitions.end()) {
            for (const auto& [rep, per_sm] : reps->second) {
                Span counts;
                counts.per_sm = per_sm;
                c.repetition_distances.push_back(misplaced(counts, m));
            }
        }
        out.push_back(std::move(c));
    }
    return out;
}

}  // namespace gpusched::validation
