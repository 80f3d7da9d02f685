// streamcluster measured on the H100 against the simulation: kernel and copy times over R, best R, block timelines.
#include "experiments/streamcluster/comparison.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "gpusched/support/input_error.h"
#include "gpusched/scheduler/registry.h"
#include "gpusched/sim/simulation.h"
#include "experiments/placement/comparison.h"
#include "gpusched/workloads/kernel_spec.h"
#include "gpusched/support/text_file.h"
#include "block_recorder.h"
#include "measured_table.h"
#include "numeric_csv.h"

namespace gpusched::validation {

namespace {

namespace fs = std::filesystem;

/// `spec` with every entry of `keys` set.
workloads::KernelSpec with_keys(workloads::KernelSpec spec, const workloads::KernelSpec& keys) {
    for (const auto& entry : keys.entries()) spec.set(entry.key, entry.value);
    return spec;
}

/// The value of the metadata line `# KEY=VALUE` of `path`; empty when absent.
std::string metadata_value(const std::string& path, const std::string& key) {
    TextLineReader reader(path, "streamcluster run table");
    std::string line;
    const std::string prefix = "# " + key + "=";
    while (reader.next(line))
        if (line.rfind(prefix, 0) == 0) return line.substr(prefix.size());
    return "";
}

double makespan_us(const workloads::KernelSpec& spec, const hw::GpuSpec& gpu, const sim::DispatchPolicy& policy,
                   std::vector<MeasuredBlock>* blocks = nullptr) {
    const workloads::Application app = workloads::build_application({spec});
    sim::Simulation simulation(gpu, app, policy, "shared");
    BlockRecorder recorder;
    if (blocks) simulation.observe(recorder);
    const double us = static_cast<double>(simulation.run().makespan) / 1e6;
    if (blocks) *blocks = measured_blocks(recorder);
    return us;
}

/// The kernel alone (its blocks recorded) and the kernel with each kind of copies.
StreamclusterSimulated simulate(const workloads::KernelSpec& spec, const hw::GpuSpec& gpu,
                                const sim::DispatchPolicy& policy, std::vector<MeasuredBlock>& blocks) {
    StreamclusterSimulated s;
    s.kernel_us = makespan_us(spec.with("copy", "none"), gpu, policy, &blocks);
    const auto [first, last] = span_of(blocks);
    s.span_us = static_cast<double>(last - first) / 1e6;
    s.blocks = blocks.size();
    s.total_pinned_us = makespan_us(spec.with("copy", "pinned"), gpu, policy);
    s.total_pageable_us = makespan_us(spec.with("copy", "pageable"), gpu, policy);
    s.d2h_pinned_us = s.total_pinned_us - s.kernel_us;
    s.d2h_pageable_us = s.total_pageable_us - s.kernel_us;
    return s;
}

/// Per-SM block counts: the SMs used and the most blocks on one.
std::pair<int, int> sm_usage(const std::vector<MeasuredBlock>& blocks) {
    std::map<int, int> per_sm;
    for (const auto& b : blocks) ++per_sm[b.sm];
    int most = 0;
    for (const auto& [sm, n] : per_sm) most = std::max(most, n);
    return {static_cast<int>(per_sm.size()), most};
}

void compare_timeline(StreamclusterPoint& p, const std::string& file, const std::vector<MeasuredBlock>& simulated) {
    const MeasuredTimeline measured = read_measured_timeline(file);
    const auto [first, last] = span_of(measured.blocks);
    p.has_timeline = true;
    p.timeline_span_us = static_cast<double>(last - first) / 1e6;
    p.timeline_blocks = static_cast<int>(measured.blocks.size());
    p.misplaced = misplaced_blocks(measured.blocks, simulated);
    std::tie(p.measured_sms, p.measured_max_per_sm) = sm_usage(measured.blocks);
    std::tie(p.simulated_sms, p.simulated_max_per_sm) = sm_usage(simulated);
    p.measured_blocks = measured.blocks;
}


/// The rake size of the smallest `time` (the first, i.e. the smallest R in R-ascending order, on ties).
template <typename F>
int best_rake(const std::vector<StreamclusterPoint>& points, F time) {
    const StreamclusterPoint* best = nullptr;
    for (const auto& p : points)
        if (!best || time(p) < time(*best) || (time(p) == time(*best) && p.rake < best->rake)) best = &p;
    return best ? best->rake : 0;
}

}  // namespace

StreamclusterComparison validate_streamcluster(const std::string& dir, const hw::GpuSpec& gpu,
                                               const std::string& policy_name, const std::string& documented_keys,
                                               bool keep_blocks) {
    const std::string runs = (fs::path(dir) / "runs.csv").string();
    const auto policy = scheduler::make_policy(policy_name);
    const auto rows = read_run_table(runs, "streamcluster run table",
                                     {"points", "dim", "centers", "rake", "tines", "blocks", "threads",
                                      "kernel_median_ms", "makespan_median_us", "d2h_pinned_median_ms",
                                      "d2h_pageable_median_ms", "total_pinned_median_ms", "total_pageable_median_ms"});
    std::string regs;
    StreamclusterComparison out;
    out.documented_keys = documented_keys;
    const std::optional<workloads::KernelSpec> documented_spec =
        documented_keys.empty() ? std::nullopt
                                : std::optional(workloads::KernelSpec::parse("streamcluster:" + documented_keys,
                                                                             "streamcluster keys"));
    std::set<int> seen;
    for (const auto& r : rows) {
        StreamclusterPoint p;
        const std::int64_t points = r.integer("points", 1, std::int64_t{1} << 40);
        p.rake = static_cast<int>(r.integer("rake", 1, std::min<std::int64_t>(points, 1 << 30)));
        if (!seen.insert(p.rake).second) throw InputError(r.where() + ": rake " + std::to_string(p.rake) + " is given twice");
        p.tines = static_cast<std::uint64_t>(r.integer("tines", 1, points));
        p.grid_blocks = static_cast<std::uint64_t>(r.integer("blocks", 1, std::int64_t{1} << 40));
        p.measured_kernel_us = r.number("kernel_median_ms") * 1000.0;
        p.measured_span_us = r.number("makespan_median_us");
        p.measured_d2h_pinned_us = r.number("d2h_pinned_median_ms") * 1000.0;
        p.measured_d2h_pageable_us = r.number("d2h_pageable_median_ms") * 1000.0;
        p.measured_total_pinned_us = r.number("total_pinned_median_ms") * 1000.0;
        p.measured_total_pageable_us = r.number("total_pageable_median_ms") * 1000.0;
        for (const double v : {p.measured_kernel_us, p.measured_span_us, p.measured_d2h_pinned_us,
                               p.measured_d2h_pageable_us, p.measured_total_pinned_us, p.measured_total_pageable_us})
            if (!(v > 0))
                throw InputError(r.where() + ": kernel_median_ms, makespan_median_us, d2h_*_median_ms and "
                                 "total_*_median_ms must be positive");
        if (r.has("workload_spec")) {
            p.workload_spec = r.text("workload_spec");
        } else {
            if (regs.empty()) regs = metadata_value(runs, "kernel.pgain.numRegs");
            if (regs.empty())
                throw InputError(runs + ": no workload_spec column and no '# kernel.pgain.numRegs=' metadata line");
            p.workload_spec = "streamcluster:points=" + std::to_string(points) +
                              ",dims=" + std::to_string(r.integer("dim", 1, 1 << 20)) +
                              ",centers=" + std::to_string(r.integer("centers", 1, 1 << 20)) +
                              ",rake=" + std::to_string(p.rake) +
                              ",threads=" + std::to_string(r.integer("threads", 1, 1024)) + ",regs=" + regs;
        }
        if (workloads::KernelSpec::name_of(p.workload_spec) != "streamcluster")
            throw InputError(r.where() + ": workload_spec is not a streamcluster spec: '" + p.workload_spec + "'");
        const workloads::KernelSpec spec = workloads::KernelSpec::parse(p.workload_spec, "kernel spec");
        std::vector<MeasuredBlock> blocks;
        p.simulated = simulate(spec, gpu, *policy, blocks);
        if (documented_spec) {
            std::vector<MeasuredBlock> unused;
            p.documented = simulate(with_keys(spec, *documented_spec), gpu, *policy, unused);
            p.documented_kernel_error_percent = percent_error(p.documented.kernel_us, p.measured_kernel_us);
        }
        out.grids_match = out.grids_match && p.simulated.blocks == p.grid_blocks;
        const std::string timeline = (fs::path(dir) / ("timeline_r" + std::to_string(p.rake) + ".csv")).string();
        if (fs::is_regular_file(timeline)) {
            compare_timeline(p, timeline, blocks);
            ++out.timelines;
            out.total_misplaced += p.misplaced;
            if (!keep_blocks) p.measured_blocks.clear();
        }
        if (keep_blocks) p.simulated_blocks = std::move(blocks);
        out.points.push_back(std::move(p));
    }
    std::vector<const StreamclusterPoint*> by_span;
    for (const auto& p : out.points) by_span.push_back(&p);
    std::sort(by_span.begin(), by_span.end(), [](const StreamclusterPoint* a, const StreamclusterPoint* b) {
        return std::tie(a->measured_span_us, a->rake) < std::tie(b->measured_span_us, b->rake);
    });
    const StreamclusterPoint& ref = *by_span[(by_span.size() - 1) / 2];
    if (!(ref.simulated.span_us > 0)) throw InputError(runs + ": the reference point's simulated span is 0");
    out.reference_rake = ref.rake;
    out.factor = ref.measured_span_us / ref.simulated.span_us;
    std::vector<double> kernel, pinned, pageable, total_pinned, total_pageable, documented;
    for (auto& p : out.points) {
        const double extra = (out.factor - 1) * p.simulated.span_us;
        p.calibrated_kernel_us = p.simulated.kernel_us + extra;
        p.calibrated_total_pinned_us = p.simulated.total_pinned_us + extra;
        p.calibrated_total_pageable_us = p.simulated.total_pageable_us + extra;
        p.kernel_error_percent = percent_error(p.calibrated_kernel_us, p.measured_kernel_us);
        p.span_error_percent = percent_error(out.factor * p.simulated.span_us, p.measured_span_us);
        p.d2h_pinned_error_percent = percent_error(p.simulated.d2h_pinned_us, p.measured_d2h_pinned_us);
        p.d2h_pageable_error_percent = percent_error(p.simulated.d2h_pageable_us, p.measured_d2h_pageable_us);
        p.total_pinned_error_percent = percent_error(p.calibrated_total_pinned_us, p.measured_total_pinned_us);
        p.total_pageable_error_percent = percent_error(p.calibrated_total_pageable_us, p.measured_total_pageable_us);
        kernel.push_back(std::abs(p.kernel_error_percent));
        pinned.push_back(std::abs(p.d2h_pinned_error_percent));
        pageable.push_back(std::abs(p.d2h_pageable_error_percent));
        total_pinned.push_back(std::abs(p.total_pinned_error_percent));
        total_pageable.push_back(std::abs(p.total_pageable_error_percent));
        documented.push_back(std::abs(p.documented_kernel_error_percent));
    }
    const ErrorSummary k = summarise_errors(kernel), pi = summarise_errors(pinned), pa = summarise_errors(pageable),
                       d = summarise_errors(documented);
    out.median_abs_kernel_error_percent = k.median;
    out.max_abs_kernel_error_percent = k.max;
    out.median_abs_d2h_pinned_error_percent = pi.median;
    out.max_abs_d2h_pinned_error_percent = pi.max;
    out.median_abs_d2h_pageable_error_percent = pa.median;
    out.max_abs_d2h_pageable_error_percent = pa.max;
    out.median_abs_total_pinned_error_percent = summarise_errors(total_pinned).median;
    out.median_abs_total_pageable_error_percent = summarise_errors(total_pageable).median;
    if (!documented_keys.empty()) {
        out.median_abs_documented_kernel_error_percent = d.median;
        out.max_abs_documented_kernel_error_percent = d.max;
    }
    const auto& pts = out.points;
    out.best_pinned = {best_rake(pts, [](const auto& p) { return p.measured_total_pinned_us; }),
                       best_rake(pts, [](const auto& p) { return p.simulated.total_pinned_us; }),
                       best_rake(pts, [](const auto& p) { return p.calibrated_total_pinned_us; }),
                       documented_keys.empty() ? 0 : best_rake(pts, [](const auto& p) { return p.documented.total_pinned_us; })};
    out.best_pageable = {best_rake(pts, [](const auto& p) { return p.measured_total_pageable_us; }),
                         best_rake(pts, [](const auto& p) { return p.simulated.total_pageable_us; }),
                         best_rake(pts, [](const auto& p) { return p.calibrated_total_pageable_us; }),
                         documented_keys.empty() ? 0 : best_rake(pts, [](const auto& p) { return p.documented.total_pageable_us; })};
    return out;
}

}  // namespace gpusched::validation
