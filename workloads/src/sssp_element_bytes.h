// The bytes of the SSSP kernels' array elements, shared by the work model and the latency chains.
#pragma once

namespace gpusched::workloads {

inline constexpr double kSsspFlagBytes = 1;  ///< bool flags U and F
inline constexpr double kSsspWordBytes = 4;  ///< distances, CSR offsets, column indices, weights

}  // namespace gpusched::workloads
