// The compute-bound paper's execution-time model (xi_rb, xi_rw, kappa) for B blocks of T threads.
#pragma once

#include <cstdint>

namespace gpusched::models {

/// Inputs in the paper's notation (Table 1).
struct ComputeBoundInputs {
    double tau = 0;                 ///< ideal execution time (any unit)
    std::uint64_t blocks = 0;       ///< beta
    std::uint64_t threads = 0;      ///< theta, threads per block
    int sm_count = 0;               ///< rho_sm
    int blocks_per_sm = 0;          ///< rho_b, resident blocks per SM
    int warps_per_sm = 0;           ///< rho_w, resident warps per SM
    int warp_size = 0;              ///< sigma_w
};

struct ComputeBoundPrediction {
    double xi_rb = 0;   ///< eq. 1
    double xi_rw = 0;   ///< eq. 2
    double kappa = 0;   ///< eq. 3, efficiency
    double time = 0;    ///< tau / kappa: tau + xi_rw, or xi_rb + xi_rw beyond the thread capacity
    bool over_capacity = false;  ///< beta x theta > rho_w x sigma_w x rho_sm
};

/// eq. 1: xi_rb = tau if beta <= rho_b rho_sm, else max(1, ceil(beta / (rho_b rho_sm))) tau.
/// eq. 2: xi_rw = {beta theta / (rho_w sigma_w rho_sm)} tau. The braces are read as the plain
/// ratio: the text says the first case of eq. 3 already "incorporates the overhead of warp
/// occupancy", which a floor would make zero below the capacity.
/// eq. 3: kappa = tau / (tau + xi_rw) up to the capacity, tau / (xi_rb + xi_rw) beyond it.
/// InputError for non-positive inputs.
ComputeBoundPrediction compute_bound_model(const ComputeBoundInputs& in);

}  // namespace gpusched::models
