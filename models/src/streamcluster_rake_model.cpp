// The CDS paper's rake-size model: the occupancy transition b (eq. 9) and the transfer bound a (eq. 13).
#include "gpusched/models/streamcluster_rake_model.h"

#include <algorithm>
#include <cmath>

#include "gpusched/support/key_error.h"
#include "gpusched/hw/occupancy.h"
#include "gpusched/workloads/streamcluster.h"

namespace gpusched::models {

// The paper (Sect. IV) writes the run time as T_total(R) = T_data(R) + T_kernel(R) (eq. 4), with
// T_data(R) = L + S_data(R) / BW (eq. 2) falling with R and T_kernel(R) flat until too few work-items
// are left to fill the GPU.
//
// b (eq. 9): with R points per work-item there are WI_app / R work-items; the GPU holds
// MP x MW x WI_warp of them at once, so the last R that still fills it is
//     b = ceil(WI_app / (MP x MW x WI_warp)).
// (GTX480, WI_app = 409600, MW = 32: b = ceil(409600 / 15360) = 27, the paper's value.)
//
// a (eqs. 10-13): the work array is K + 1 floats per work-item, S_data(R) = 4 (K + 1) WI_app / R
// (eq. 11); the latency part of the transfers is L = l x n over the n buffer commands (eq. 12); the
// transfer counts as latency-dominated once (S_data(R) / BW) / L <= delta (eq. 10), i.e.
//     R >= 4 (K + 1) WI_app / (delta x l x n x BW)      (eq. 13),  a = the smallest such integer R.
// As in the paper, one call's data is set against all n calls' latency. (Its example: K = 20,
// WI_app = 51200, delta = 1%, l = 45 us, n = 895, BW = 1 GB/s: R >= 10.7, a = 11.)
//
// a <= b: R = b (IV-A: T_data barely falls between a and b, T_kernel rises after b).
// a > b: the optimum is in [b, a], found by an empirical search (IV-B) -- here, by simulation.
RakeModelResult rake_model(const RakeModelInputs& in) {
    RakeModelResult r;
    const double resident = static_cast<double>(in.sms) * static_cast<double>(in.warps_per_sm) *
                            static_cast<double>(in.warp_size);
    r.b = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::ceil(static_cast<double>(in.points) / resident)));
    const double data = 4.0 * static_cast<double>(in.centers + 1) * static_cast<double>(in.points);
    r.a_bound = data / (in.delta * in.latency_s * static_cast<double>(in.commands) * in.bandwidth_bytes_per_s);
    const double a = std::ceil(r.a_bound);
    r.a = !(a >= 1) ? 1 : a >= 1e18 ? static_cast<std::uint64_t>(1e18) : static_cast<std::uint64_t>(a);
    return r;
}

RakeModelInputs rake_model_inputs(const hw::GpuSpec& gpu, const workloads::KernelLaunch& launch, double delta) {
    const auto* work = dynamic_cast<const workloads::StreamclusterWork*>(launch.work.get());
    if (work == nullptr) throw KeyError("kernel", "the rake model needs a streamcluster kernel, got '" + launch.name + "'");
    const workloads::StreamclusterKeys& keys = work->keys();
    if (keys.copy == workloads::StreamclusterCopy::none)
        throw KeyError("kernel", "the rake model needs the copies (copy=pinned or copy=pageable), got copy=none");
    if (!(delta > 0) || !(delta <= 1)) throw KeyError("delta", "expected a fraction in (0, 1]");
    const bool pinned = keys.copy == workloads::StreamclusterCopy::pinned;
    const auto& bw = pinned ? gpu.host_link_gbps : gpu.host_link_pageable_gbps;
    if (!bw)
        throw KeyError("gpu", gpu.name,
                       std::string("the rake model needs host_link.") + (pinned ? "bandwidth_gbps" : "pageable_bandwidth_gbps"));
    if (!gpu.host_link_latency_ns || !(*gpu.host_link_latency_ns > 0))
        throw KeyError("gpu", gpu.name, "the rake model needs host_link.latency_ns (l of eq. 12)");
    const hw::OccupancyResult occ = hw::compute_occupancy(gpu, launch.occupancy_request());
    RakeModelInputs in;
    in.points = keys.points;
    in.centers = keys.centers;
    in.sms = static_cast<std::uint64_t>(gpu.sm_count);
    in.warps_per_sm = static_cast<std::uint64_t>(occ.warps_per_sm);  // blocks per SM x warps per block
    in.warp_size = static_cast<std::uint64_t>(gpu.warp_size);
    in.latency_s = *gpu.host_link_latency_ns * 1e-9;
    in.commands = keys.calls * workloads::streamcluster_copies(keys).size();
    in.bandwidth_bytes_per_s = *bw * 1e9;
    in.delta = delta;
    return in;
}

}  // namespace gpusched::models
