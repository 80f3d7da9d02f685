// Simulated search over one kernel-spec key, and the characterisation paper's block-size rule of thumb.
#include "gpusched/calibrate/tune.h"

#include <algorithm>

#include "gpusched/support/input_error.h"
#include "gpusched/support/key_error.h"
#include "gpusched/support/yaml_fields.h"
#include "gpusched/scheduler/registry.h"
#include "gpusched/sim/execution/execution_model.h"
#include "gpusched/sweep/simulation.h"
#include "gpusched/workloads/kernel_spec.h"

namespace gpusched::calibrate {

std::string with_spec_key(const std::string& spec, const std::string& key, const std::string& value) {
    return workloads::KernelSpec::parse(spec, "kernel spec '" + spec + "'").with(key, value).as_written();
}

TuneResult tune(const hw::GpuSpec& gpu, const TuneRequest& request) {
    if (request.values.empty()) throw KeyError("values", "no candidate values");
    (void)scheduler::make_policy(request.policy);
    sim::check_execution_model_name(request.execution);
    if (request.total_threads && (*request.total_threads < 1 || *request.total_threads > kMaxTotalThreads))
        throw KeyError("total_threads", std::to_string(*request.total_threads),
                       "expected a thread count in [1, " + std::to_string(kMaxTotalThreads) + "]");
    const workloads::KernelSpec base = workloads::KernelSpec::parse(request.spec, request.spec_where);
    TuneResult out;
    for (const auto& value : request.values) {
        TuneCandidate c;
        c.value = value;
        workloads::KernelSpec spec = base.with(request.key, value);
        if (request.total_threads) {
            const auto threads = parse_integer(value);
            if (!threads || *threads < 1)
                throw KeyError("total_threads", "the candidate values must be thread counts, got '" + value + "'");
            const auto t = static_cast<std::uint64_t>(*threads);
            spec.set("blocks", std::to_string((*request.total_threads + t - 1) / t));
        }
        c.spec = spec.as_written();
        try {
            const workloads::Application app = workloads::build_application({spec});
            const sweep::SimulationOutcome r = sweep::simulate_summary(gpu, app, request.policy, request.execution);
            c.makespan_us = static_cast<double>(r.summary.makespan) / 1e6;
            if (!r.occupancy.empty()) {
                c.blocks_per_sm = r.occupancy.front().blocks_per_sm;
                c.warps_per_sm = r.occupancy.front().warps_per_sm;
                c.occupancy = r.occupancy.front().occupancy;
            }
        } catch (const InputError& e) {
            c.error = e.what();
        }
        out.candidates.push_back(std::move(c));
        const auto& last = out.candidates.back();
        if (last.makespan_us && (!out.best || *last.makespan_us < *out.candidates[*out.best].makespan_us))
            out.best = out.candidates.size() - 1;
    }
    return out;
}

std::optional<std::size_t> smallest_max_occupancy(const TuneResult& result) {
    double top = -1;
    for (const auto& c : result.candidates)
        if (c.makespan_us) top = std::max(top, c.occupancy);
    std::optional<std::size_t> pick;
    std::optional<double> pick_value;
    for (std::size_t i = 0; i < result.candidates.size(); ++i) {
        const auto& c = result.candidates[i];
        if (!c.makespan_us || c.occupancy != top) continue;
        const auto v = parse_number(c.value);
        if (!v) return std::nullopt;
        if (!pick_value || *v < *pick_value) {
            pick = i;
            pick_value = *v;
        }
    }
    return pick;
}

}  // namespace gpusched::calibrate
