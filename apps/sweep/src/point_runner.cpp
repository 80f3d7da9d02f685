// Point runner: builds and simulates one point; study checks by probe points.
#include "gpusched/sweep/point_runner.h"

#include <algorithm>
#include <charconv>
#include <set>

#include "gpusched/support/input_error.h"
#include "gpusched/support/key_error.h"
#include "gpusched/scheduler/registry.h"
#include "gpusched/sim/execution/execution_model.h"
#include "gpusched/sweep/point_space.h"
#include "gpusched/sweep/simulation.h"
#include "gpusched/sweep/workload_builder.h"

namespace gpusched::sweep {

namespace {

const char* const kDefaultGpu = "h100";

std::string fixed4(double v) {
    char buf[64];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, 4);
    (void)ec;
    return std::string(buf, end);
}

struct BuiltPoint {
    std::string gpu;
    GpuOverrides overrides;
    std::string policy;
    std::string exec;
    const WorkloadDef* workload = nullptr;
};

BuiltPoint describe(const Study& study, const std::vector<std::string>& given) {
    const std::vector<std::string> values = effective_values(study, given);
    BuiltPoint b;
    b.gpu = values[kGpuParam];
    b.policy = values[kPolicyParam];
    b.exec = values[kExecParam];
    for (std::size_t i = 0; i < study.params.size(); ++i)
        if (study.params[i].kind == ParamKind::gpu_field && !values[i].empty())
            b.overrides.emplace_back(study.params[i].gpu_path, values[i]);
    for (const auto& w : study.workloads)
        if (w.name == values[kWorkloadParam]) b.workload = &w;
    if (b.workload == nullptr) throw InputError("unknown workload '" + values[kWorkloadParam] + "'");
    return b;
}

std::string point_label(const Study& study, std::uint64_t p, const std::vector<std::string>& values) {
    std::string label = "point " + std::to_string(p) + " (";
    bool first = true;
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (values[i].empty()) continue;
        label += (first ? "" : " ") + study.params[i].name + "=" + values[i];
        first = false;
    }
    return label + ")";
}

/// Every value a parameter takes anywhere in the study (random ranges excepted).
std::set<std::string> all_values(const Study& study, std::size_t param) {
    std::set<std::string> out;
    if (!study.fixed[param].empty()) out.insert(study.fixed[param]);
    for (const auto& set : study.sets) {
        for (const auto& axis : set.axes)
            if (axis.param == param) out.insert(axis.values.begin(), axis.values.end());
        for (const auto& row : set.rows)
            for (const auto& [p, v] : row)
                if (p == param) out.insert(v);
        for (const auto& axis : set.random_axes)
            if (axis.param == param) out.insert(axis.choices.begin(), axis.choices.end());
    }
    return out;
}

void check_special_values(const Study& study) {
    for (const auto& gpu : all_values(study, kGpuParam)) {
        try {
            (void)gpu_base_yaml(gpu, study.base_dir);
        } catch (const InputError& e) {
            throw InputError(study.source + ": parameter 'gpu': " + e.what());
        }
    }
    for (const auto& policy : all_values(study, kPolicyParam))
        naming_keys({{"policy", study.source + ": parameter 'policy'"}}, [&] { (void)scheduler::make_policy(policy); });
    for (const auto& exec : all_values(study, kExecParam))
        if (exec != "auto" && exec != "fixed" && exec != "shared")
            throw InputError(study.source + ": parameter 'exec': unknown execution model '" + exec +
                             "' (allowed: auto, fixed, shared)");
    for (const auto& name : all_values(study, kWorkloadParam)) {
        std::string known;
        bool found = false;
        for (const auto& w : study.workloads) {
            found = found || w.name == name;
            known += (known.empty() ? "" : ", ") + w.name;
        }
        if (!found)
            throw InputError(study.source + ": parameter 'workload': unknown workload '" + name +
                             "' (the study's workloads: " + known + ")");
    }
}

/// Probe points of a set, as indices within it.
std::vector<std::uint64_t> probes(const PointSet& set) {
    constexpr std::uint64_t kListProbes = 1000, kRandomProbes = 64;
    std::vector<std::uint64_t> out{0};
    if (set.kind == PointSet::Kind::grid) {
        std::uint64_t stride = set.count;
        for (const auto& axis : set.axes) {
            stride /= axis.values.size();
            for (std::uint64_t v = 1; v < axis.values.size(); ++v) out.push_back(v * stride);
        }
    } else {
        const std::uint64_t n = std::min(set.count, set.kind == PointSet::Kind::list ? kListProbes : kRandomProbes);
        for (std::uint64_t i = 1; i < n; ++i) out.push_back(i);
    }
    return out;
}

}  // namespace

std::vector<std::string> effective_values(const Study& study, std::vector<std::string> values) {
    if (values[kGpuParam].empty()) values[kGpuParam] = kDefaultGpu;
    if (values[kPolicyParam].empty()) values[kPolicyParam] = scheduler::default_policy();
    if (values[kExecParam].empty()) values[kExecParam] = std::string(sim::kDefaultExecutionModel);
    if (values[kWorkloadParam].empty() && !study.workloads.empty()) values[kWorkloadParam] = study.workloads.front().name;
    return values;
}

const std::vector<std::string>& metric_names() {
    static const std::vector<std::string> names = {
        "execution",     "makespan_ns",   "kernels",       "total_blocks",  "waves",
        "blocks_per_sm", "warps_per_sm",  "occupancy",     "limited_by",    "sm_blocks_min",
        "sm_blocks_max", "resident_mean", "error"};
    return names;
}

void PointRunner::build_only(const std::vector<std::string>& values) {
    const BuiltPoint b = describe(study_, values);
    try {
        (void)gpus_.get(b.gpu, b.overrides);
    } catch (const InconsistentSpecError&) {
    }
    (void)build_workload(*b.workload, study_.params, values);
}

std::vector<std::string> PointRunner::run(const std::vector<std::string>& values) {
    std::vector<std::string> cells(metric_names().size());
    try {
        const BuiltPoint b = describe(study_, values);
        const hw::GpuSpec& gpu = gpus_.get(b.gpu, b.overrides);
        const workloads::Application app = build_workload(*b.workload, study_.params, values);
        const SimulationOutcome out = simulate_summary(gpu, app, b.policy, b.exec, stop_);
        const sim::RunSummary& s = out.summary;
        std::uint64_t waves = 0;
        for (std::size_t i = 0; i < s.kernel_count(); ++i) waves += s.kernel(i).waves;
        const hw::OccupancyResult* least = nullptr;
        for (const auto& occ : out.occupancy)
            if (least == nullptr || occ.occupancy < least->occupancy) least = &occ;
        std::string limited;
        if (least != nullptr)
            for (auto limiter : least->limited_by) limited += (limited.empty() ? "" : "+") + std::string(hw::to_string(limiter));
        const auto [min_blocks, max_blocks] = std::minmax_element(s.per_sm_blocks.begin(), s.per_sm_blocks.end());
        double busy = 0;
        for (auto t : s.per_sm_busy) busy += static_cast<double>(t);
        const double denominator = static_cast<double>(s.makespan) * static_cast<double>(s.per_sm_busy.size());
        cells = {s.execution,
                 format_ns(s.makespan),
                 std::to_string(s.kernel_count()),
                 std::to_string(s.total_blocks),
                 std::to_string(waves),
                 least ? std::to_string(least->blocks_per_sm) : "",
                 least ? std::to_string(least->warps_per_sm) : "",
                 least ? fixed4(least->occupancy) : "",
                 limited,
                 min_blocks != s.per_sm_blocks.end() ? std::to_string(*min_blocks) : "",
                 max_blocks != s.per_sm_blocks.end() ? std::to_string(*max_blocks) : "",
                 denominator > 0 ? fixed4(busy / denominator) : "",
                 ""};
    } catch (const InputError& e) {
        cells.back() = e.what();
    } catch (const RunStopped&) {
        throw;  // the sweep is stopping: no row for this point
    } catch (const std::exception& e) {
        cells.back() = std::string("internal error: ") + e.what();
    }
    return cells;
}

void check_study(const Study& study) {
    check_special_values(study);
    PointRunner runner(study);
    std::uint64_t first = 0;
    for (const auto& set : study.sets) {
        for (std::uint64_t index : probes(set)) {
            const std::uint64_t p = first + index;
            const auto values = point_values(study, p);
            try {
                runner.build_only(values);
            } catch (const InputError& e) {
                throw InputError(set.where + ": " + point_label(study, p, values) + ": " + e.what());
            }
        }
        first += set.count;
    }
}

}  // namespace gpusched::sweep
