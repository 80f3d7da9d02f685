// The interval paper's closed forms for the maximum warps per SM: Min, Sorted, Full, Buckets (eqs. 14-18).
#pragma once

#include <cstdint>
#include <functional>

namespace gpusched::models {

/// A kernel as the closed forms see it.
struct IntervalKernel {
    std::uint64_t blocks = 0;       ///< ceil(n/BlockSize)^2 for APSP
    int sm_count = 0;
    int blocks_per_sm = 0;          ///< #BlocksPerSM_Occ from the occupancy calculator
    int warps_per_block = 0;        ///< #WarpsPerBlock_Full
    /// Active warps of each block (full, right, bottom, last categories for APSP).
    std::function<int(std::uint64_t)> active_warps;
};

/// #WarpsPerSM under each of the four assumptions.
struct WarpsPerSm {
    std::uint64_t min = 0;      ///< eq. 14: ceil(#Warps / #SMs), warps spread ignoring blocks
    std::uint64_t sorted = 0;   ///< list scheduling by decreasing active warps (formula omitted in the paper)
    std::uint64_t full = 0;     ///< eq. 15: ceil(#Blocks / #SMs) x #WarpsPerBlock_Full
    std::uint64_t buckets = 0;  ///< eqs. 16-18: whole rounds of k-block buckets, plus the first SM's share of the last
};

/// Computes all four. Sorted is O(blocks log SMs); the others O(1) apart from summing active
/// warps for Min (O(blocks), lazily through `active_warps`).
///
/// Eq. 16 prints #Blocks_1 with a ceiling, which would make eq. 17 negative; the text and
/// Figure 4(b) describe whole rounds of buckets, i.e. a floor: #Blocks_1 = floor(B / (k S)) k,
/// #Blocks_2 = min(B - #Blocks_1 S, k). That is what is computed here (and what the
/// `buckets` policy does, see tests/scheduler/interval_model_test.cpp).
WarpsPerSm interval_warps_per_sm(const IntervalKernel& kernel);

/// eq. 2: T_kernel = T_launch + T_warp x #WarpsPerSM x #ThreadsPerWarp / #CoresPerSM, in any time unit.
double interval_kernel_time(double launch_time, double warp_time, std::uint64_t warps_per_sm, int threads_per_warp,
                            int cores_per_sm);

/// The calibration factor f of section 5: 4 T_meas(n0) / (T'_Min + T'_Sorted + T'_Full + T'_Buckets)(n0).
double interval_calibration_factor(double measured, double t_min, double t_sorted, double t_full, double t_buckets);

}  // namespace gpusched::models
