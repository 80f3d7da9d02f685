// The CDS paper's rake-size model (seed 004, Sect. IV): b from the occupancy limits, a from the transfer model.
#pragma once

#include <cstdint>

#include "gpusched/hw/gpu_spec.h"
#include "gpusched/workloads/kernel_launch.h"

namespace gpusched::models {

/// The model's inputs, in the paper's symbols (Tables III, IV; eqs. 9-13).
struct RakeModelInputs {
    std::uint64_t points = 1;        ///< WI_app: work-items at R = 1, one per point
    std::uint64_t centers = 1;       ///< K
    std::uint64_t sms = 1;           ///< MP
    std::uint64_t warps_per_sm = 1;  ///< MW: resident warps per SM (eq. 8; here the occupancy calculator's)
    std::uint64_t warp_size = 32;    ///< WI_warp
    double latency_s = 0;            ///< l: startup time of one device-to-host buffer command
    std::uint64_t commands = 1;      ///< n: device-to-host buffer commands of the run
    double bandwidth_bytes_per_s = 1;  ///< BW: host-link bandwidth of those copies
    double delta = 0.01;             ///< delta: threshold of eq. 10 (the paper's 1%)
};

struct RakeModelResult {
    std::uint64_t b = 1;   ///< eq. 9: the largest R that still fills every SM with MW warps
    double a_bound = 0;    ///< eq. 13: R >= a_bound makes the transfer latency-dominated
    std::uint64_t a = 1;   ///< ceil(a_bound), at least 1
    /// a <= b: R = b is optimal (Sect. IV-A); a > b: the optimum lies in [b, a] and is searched (IV-B).
    [[nodiscard]] bool needs_search() const { return a > b; }
};

/// Evaluates eqs. 9 and 13 (the maths is in the .cpp).
RakeModelResult rake_model(const RakeModelInputs& in);

/// The inputs for a `streamcluster` launch on `gpu`: MW from the occupancy calculator (blocks per SM
/// x warps per block), l from host_link.latency_ns, BW from host_link.bandwidth_gbps (copy=pinned) or
/// pageable_bandwidth_gbps (copy=pageable), n = calls x copies per call. Throws a KeyError (key kernel,
/// delta or gpu) when the launch is not streamcluster's, has copy=none, delta is not in (0, 1], or the
/// GPU lacks a value the model needs.
RakeModelInputs rake_model_inputs(const hw::GpuSpec& gpu, const workloads::KernelLaunch& launch, double delta);

}  // namespace gpusched::models
