// SpMV measured on the H100 against the simulation: run times (one-point calibrated spans) and block timelines.
#include "experiments/spmv/comparison.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <tuple>

#include "gpusched/support/input_error.h"
#include "gpusched/scheduler/registry.h"
#include "gpusched/sim/simulation.h"
#include "experiments/placement/comparison.h"
#include "gpusched/workloads/kernel_spec.h"
#include "block_recorder.h"
#include "data_spec.h"
#include "measured_table.h"
#include "numeric_csv.h"

namespace gpusched::validation {

namespace {

std::vector<Time> starts_relative(const std::vector<MeasuredBlock>& blocks) {
    const Time first = span_of(blocks).first;
    std::vector<Time> out;
    for (const auto& b : blocks) out.push_back(b.start - first);
    return out;
}

void compare_timeline(SpmvPoint& p, const std::string& file, const std::vector<MeasuredBlock>& simulated) {
    const MeasuredTimeline measured = read_measured_timeline(file);
    const auto [first, last] = span_of(measured.blocks);
    p.has_timeline = true;
    p.timeline_span_us = static_cast<double>(last - first) / 1e6;
    p.misplaced = misplaced_blocks(measured.blocks, simulated);
    p.start_distance = ks_distance(starts_relative(measured.blocks), starts_relative(simulated));
    p.measured_blocks = measured.blocks;
}

}  // namespace

SpmvComparison validate_spmv(const std::string& dir, const hw::GpuSpec& gpu, const std::string& policy_name,
                             bool keep_blocks) {
    namespace fs = std::filesystem;
    const std::string runs = (fs::path(dir) / "runs.csv").string();
    const auto policy = scheduler::make_policy(policy_name);
    SpmvComparison out;
    for (const auto& r : read_run_table(runs, "SpMV run table",
                                        {"matrix", "size", "paper_name", "rows", "nnz", "format", "launch", "blocks", "median_ms",
                                         "makespan_median_us", "workload_spec"})) {
        if (r.text("launch") != "all") continue;
        SpmvPoint p;
        p.matrix = r.text("matrix") + "-" + r.text("size");
        p.paper_name = r.text("paper_name");
        p.format = r.text("format");
        p.rows = static_cast<int>(r.integer("rows", 1, 1 << 26));
        p.nnz = r.integer("nnz", 0, std::int64_t{1} << 31);
        p.workload_spec = r.text("workload_spec");
        p.grid_blocks = static_cast<std::uint64_t>(r.integer("blocks", 0, std::int64_t{1} << 40));
        p.measured_event_us = r.number("median_ms") * 1000.0;
        p.measured_span_us = r.number("makespan_median_us");
        if (!(p.measured_event_us > 0) || !(p.measured_span_us > 0))
            throw InputError(r.where() + ": median_ms and makespan_median_us must be positive");
        const workloads::Application app =
            workloads::build_application({spec_with_data_file(p.workload_spec, "spmv", "matrix", dir, r.where())});
        sim::Simulation simulation(gpu, app, *policy, "shared");
        BlockRecorder recorder;
        simulation.observe(recorder);
        p.simulated_us = static_cast<double>(simulation.run().makespan) / 1e6;
        std::vector<MeasuredBlock> recorded = measured_blocks(recorder);
        const auto [first, last] = span_of(recorded);
        p.simulated_span_us = static_cast<double>(last - first) / 1e6;
        std::map<std::uint64_t, std::vector<MeasuredBlock>> by_launch;
        for (const auto& b : recorded) by_launch[b.launch].push_back(b);
        for (const auto& [launch, blocks] : by_launch) {
            const auto [lo, hi] = span_of(blocks);
            p.simulated_busy_us += static_cast<double>(hi - lo) / 1e6;
        }
        p.launches = static_cast<int>(app.launches.size());
        p.blocks = recorded.size();
        out.grids_match = out.grids_match && p.blocks == p.grid_blocks;
        const std::string timeline = (fs::path(dir) / ("timeline_" + p.matrix + "_" + p.format + ".csv")).string();
        if (fs::is_regular_file(timeline)) {
            compare_timeline(p, timeline, recorded);
            ++out.timelines;
            out.total_misplaced += p.misplaced;
            if (!keep_blocks) p.measured_blocks.clear();
        }
        if (keep_blocks) p.simulated_blocks = std::move(recorded);
        out.points.push_back(std::move(p));
    }
    if (out.points.empty()) throw InputError(runs + ": no rows with launch = all");
    std::vector<const SpmvPoint*> by_span;
    for (const auto& p : out.points) by_span.push_back(&p);
    std::sort(by_span.begin(), by_span.end(), [](const SpmvPoint* a, const SpmvPoint* b) {
        return std::tie(a->measured_span_us, a->matrix, a->format) < std::tie(b->measured_span_us, b->matrix, b->format);
    });
    const SpmvPoint& ref = *by_span[(by_span.size() - 1) / 2];
    if (!(ref.simulated_span_us > 0)) throw InputError(runs + ": the reference point's simulated span is 0");
    out.reference_matrix = ref.matrix;
    out.reference_format = ref.format;
    out.factor = ref.measured_span_us / ref.simulated_span_us;
    std::vector<double> span_errors, event_errors;
    for (auto& p : out.points) {
        p.calibrated_span_us = p.simulated_span_us + (out.factor - 1) * p.simulated_busy_us;
        p.calibrated_us = p.simulated_us + (out.factor - 1) * p.simulated_busy_us;
        p.event_error_percent = 100.0 * (p.calibrated_us - p.measured_event_us) / p.measured_event_us;
        p.span_error_percent = 100.0 * (p.calibrated_span_us - p.measured_span_us) / p.measured_span_us;
        span_errors.push_back(std::abs(p.span_error_percent));
        event_errors.push_back(std::abs(p.event_error_percent));
    }
    const ErrorSummary spans = summarise_errors(span_errors), events = summarise_errors(event_errors);
    out.median_abs_span_error_percent = spans.median;
    out.max_abs_span_error_percent = spans.max;
    out.median_abs_event_error_percent = events.median;
    out.max_abs_event_error_percent = events.max;
    for (const std::string format : {"csr", "ell", "coo", "hyb"}) {
        std::vector<double> abs_span, event;
        for (const auto& p : out.points)
            if (p.format == format) {
                abs_span.push_back(std::abs(p.span_error_percent));
                event.push_back(p.event_error_percent);
            }
        if (abs_span.empty()) continue;
        const ErrorSummary s = summarise_errors(abs_span);
        out.formats.push_back({format, static_cast<int>(abs_span.size()), s.median, s.max, median_of(event)});
    }
    return out;
}

}  // namespace gpusched::validation
