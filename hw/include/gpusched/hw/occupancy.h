// Occupancy calculator: how many blocks of one kernel fit on an SM, by the CUDA allocation rules.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpusched/hw/gpu_spec.h"

namespace gpusched::hw {

/// The L1/shared-memory split a kernel asks for.
/// cc >= 7.0: `percent` of shared_memory_per_sm, rounded up to the next supported size
/// (cudaFuncAttributePreferredSharedMemoryCarveout); `max_shared` = 100, `max_l1` = 0,
/// `equal` = 50. cc < 7.0: the cache config (cudaFuncCachePrefer*): `max_shared` the
/// largest size, `max_l1` the smallest, `equal` the middle one where the GPU has one.
struct Carveout {
    enum class Kind { device_default, max_shared, max_l1, equal, percent };
    Kind kind = Kind::device_default;
    int percent = 0;  ///< used when kind == percent, 0..100

    /// Parses "default", "max-shared", "max-l1", "equal" or an integer 0..100.
    /// Throws InputError naming `where` (a flag, a file's key) otherwise.
    static Carveout parse(const std::string& text, const std::string& where);
    [[nodiscard]] std::string to_string() const;
};

/// One kernel's per-block needs.
struct OccupancyRequest {
    int threads_per_block = 0;
    int registers_per_thread = 0;
    std::int64_t static_shared_bytes = 0;
    std::int64_t dynamic_shared_bytes = 0;
    int barriers_per_block = 1;  ///< named barriers used by the kernel (__syncthreads uses 1)
    Carveout carveout{};
};

enum class Limiter { warps, registers, shared_memory, blocks, barriers };
const char* to_string(Limiter limiter);

/// Result for a launchable kernel. Limits are blocks per SM; `unlimited` when the
/// resource is not used (0 registers, 0 shared memory).
struct OccupancyResult {
    static constexpr int unlimited = 1 << 30;

    int blocks_per_sm = 0;
    int warps_per_block = 0;
    int warps_per_sm = 0;
    double occupancy = 0;  ///< warps_per_sm / max_warps_per_sm
    std::vector<Limiter> limited_by;

    int limit_warps = unlimited;
    int limit_registers = unlimited;
    int limit_shared_memory = unlimited;
    int limit_blocks = unlimited;
    int limit_barriers = unlimited;

    int registers_per_warp = 0;               ///< after rounding to the allocation unit
    int registers_per_block = 0;              ///< allocated per block
    std::int64_t shared_bytes_per_block = 0;  ///< static + dynamic + reserved, rounded to the unit
    std::int64_t shared_bytes_per_sm = 0;     ///< the L1/shared split the driver picks for this kernel
    bool needs_shared_optin = false;          ///< over the default per-block limit: needs cudaFuncSetAttribute
};

/// Computes occupancy. A kernel that cannot launch at all (too many threads, registers
/// or shared memory per block, or a carveout the GPU does not support) is an InputError
/// naming the limit; a launchable kernel always gets blocks_per_sm >= 1. An error about one
/// value of the request is a KeyError with key threads, regs, smem, barriers or carveout.
OccupancyResult compute_occupancy(const GpuSpec& spec, const OccupancyRequest& request);

}  // namespace gpusched::hw
