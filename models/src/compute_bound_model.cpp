// The compute-bound paper's model, eqs. 1-3.
#include "gpusched/models/compute_bound_model.h"

#include <algorithm>

#include "gpusched/support/input_error.h"

namespace gpusched::models {

ComputeBoundPrediction compute_bound_model(const ComputeBoundInputs& in) {
    if (!(in.tau > 0) || in.blocks == 0 || in.threads == 0 || in.sm_count <= 0 || in.blocks_per_sm <= 0 ||
        in.warps_per_sm <= 0 || in.warp_size <= 0)
        throw InputError("compute-bound model: tau, blocks, threads and the GPU's limits must be positive");
    const auto resident_blocks = static_cast<std::uint64_t>(in.blocks_per_sm) * static_cast<std::uint64_t>(in.sm_count);
    const double capacity = static_cast<double>(in.warps_per_sm) * in.warp_size * in.sm_count;
    const double threads = static_cast<double>(in.blocks) * static_cast<double>(in.threads);
    ComputeBoundPrediction p;
    p.xi_rb = in.blocks <= resident_blocks
                  ? in.tau
                  : static_cast<double>(std::max<std::uint64_t>(1, (in.blocks + resident_blocks - 1) / resident_blocks)) * in.tau;
    p.xi_rw = threads / capacity * in.tau;
    p.over_capacity = threads > capacity;
    p.kappa = p.over_capacity ? in.tau / (p.xi_rb + p.xi_rw) : in.tau / (in.tau + p.xi_rw);
    p.time = in.tau / p.kappa;
    return p;
}

}  // namespace gpusched::models
