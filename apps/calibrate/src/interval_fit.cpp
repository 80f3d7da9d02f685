// The interval paper's calibration factor: its one-point rule and least-squares fits over many sizes.
#include "gpusched/calibrate/interval_fit.h"

#include <algorithm>
#include <tuple>

#include <Eigen/Dense>

#include "gpusched/support/key_error.h"
#include "gpusched/hw/occupancy.h"
#include "gpusched/models/interval_model.h"
#include "gpusched/workloads/cycle_latency.h"
#include "gpusched/workloads/kernel_spec.h"

namespace gpusched::calibrate {

IntervalTerms interval_terms(const hw::GpuSpec& gpu, const std::string& base, std::int64_t n, int block) {
    return interval_terms(gpu, workloads::KernelSpec::parse(base, "kernel spec '" + base + "'"), n, block);
}

IntervalTerms interval_terms(const hw::GpuSpec& gpu, const workloads::KernelSpec& base, std::int64_t n, int block) {
    workloads::KernelSpec spec = base;
    spec.add("n", std::to_string(n)).add("block", std::to_string(block));
    const workloads::SpecLaunches parsed = workloads::build_kernel_launches(spec);
    const workloads::KernelLaunch& k = parsed.launch;
    if (!gpu.clock_mhz) throw KeyError("gpu", gpu.name, "the interval model needs execution.clock_mhz");
    const auto work = workloads::warp_work_at_clock(*k.work, 0, *gpu.clock_mhz);
    if (!work) throw KeyError("kernel", "'" + k.name + "' gives no per-warp work; the interval model needs it");
    const hw::OccupancyResult occ = hw::compute_occupancy(gpu, k.occupancy_request());
    const int warps = occ.warps_per_block;
    const models::IntervalKernel ik{k.blocks(), gpu.sm_count, occ.blocks_per_sm, warps,
                                       [&](std::uint64_t b) { return k.work->active_warps(b, warps); }};
    const models::WarpsPerSm w = models::interval_warps_per_sm(ik);
    // One warp's share of the SM's issue, W / (C f_clock), as in `gpusched predict`.
    const double warp_us = work->issue_slots / (gpu.issue_slots_per_cycle() * *gpu.clock_mhz);
    const double mean_warps = static_cast<double>(w.min + w.sorted + w.full + w.buckets) / 4.0;
    IntervalTerms t;
    t.launches = static_cast<double>(parsed.count);
    t.launch_us = gpu.launch_to_first_block_ns() / 1000.0;
    t.issue_us = t.launches * warp_us * mean_warps;
    t.average_us = t.launches * t.launch_us + t.issue_us;
    return t;
}

const char* interval_method_name(IntervalMethod method) {
    switch (method) {
        case IntervalMethod::one_point: return "one-point f (paper)";
        case IntervalMethod::factor: return "least-squares f";
        case IntervalMethod::factor_launch: return "least-squares f + per-launch constant";
    }
    return "?";
}

IntervalFactor fit_interval(const std::vector<IntervalTerms>& terms, const std::vector<ApspMeasurement>& measured,
                            const std::vector<std::size_t>& train, IntervalMethod method) {
    if (train.empty()) throw InputError("calibrate: no measured points to fit");
    IntervalFactor out;
    if (method == IntervalMethod::one_point) {
        std::vector<std::size_t> order = train;
        std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return std::tie(measured[a].measured_us, measured[a].n, a) < std::tie(measured[b].measured_us, measured[b].n, b);
        });
        const std::size_t ref = order[(order.size() - 1) / 2];
        const IntervalTerms& t = terms[ref];
        out.f = models::interval_calibration_factor(measured[ref].measured_us, t.average_us, t.average_us,
                                                       t.average_us, t.average_us);
        return out;
    }
    const bool with_launch = method == IntervalMethod::factor_launch;
    const auto rows = static_cast<Eigen::Index>(train.size());
    Eigen::MatrixXd a(rows, with_launch ? 2 : 1);
    Eigen::VectorXd b(rows);
    for (Eigen::Index r = 0; r < rows; ++r) {
        const std::size_t i = train[static_cast<std::size_t>(r)];
        const double m = measured[i].measured_us;
        a(r, 0) = (with_launch ? terms[i].issue_us : terms[i].average_us) / m;
        if (with_launch) a(r, 1) = terms[i].launches / m;
        b(r) = 1.0;
    }
    const Eigen::VectorXd x = a.colPivHouseholderQr().solve(b);
    out.f = x(0);
    if (with_launch) out.launch_us = x(1);
    if (!(out.f > 0)) throw InputError("calibrate: the least-squares f is not positive (" + std::to_string(out.f) + ")");
    return out;
}

double interval_predict_us(const IntervalTerms& terms, const IntervalFactor& factor) {
    if (factor.launch_us) return terms.launches * *factor.launch_us + factor.f * terms.issue_us;
    return factor.f * terms.average_us;
}

}  // namespace gpusched::calibrate
