// CUDA's warp size and the rounded-up division the work models count warps, steps and blocks with.
#pragma once

#include <cstdint>

namespace gpusched::workloads {

/// CUDA's warpSize: the generators' SIMT grouping (ApspGrid's kApspWarpSize is the same 32).
inline constexpr std::uint64_t kCudaWarpSize = 32;

/// a / b rounded up (b > 0); no overflow for any a.
inline std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return a / b + (a % b != 0); }

}  // namespace gpusched::workloads
