// Placement validation: replay each measured timeline of a data directory and compare span and per-SM counts.
#pragma once

#include <string>
#include <vector>

#include "gpusched/hw/gpu_spec.h"

namespace gpusched::validation {

/// One measured case against its replay.
struct PlacementComparison {
    std::string name;           ///< file stem, e.g. "wave265"
    std::uint64_t blocks = 0;
    double measured_us = 0;     ///< first block start to last block end
    double simulated_us = 0;
    double error_percent = 0;   ///< 100 (simulated - measured) / measured
    int misplaced = 0;          ///< blocks on another SM than measured (half the L1 distance of per-SM counts)
};

/// Replays every timeline CSV in `dir` (except runs.csv and nvidia-smi.csv; each needs
/// `# threads=` and `# smem=` metadata) with `policy` on `gpu`, in file-name order.
/// InputError if the directory is missing or holds no timelines.
std::vector<PlacementComparison> validate_placement(const std::string& dir, const hw::GpuSpec& gpu,
                                                    const std::string& policy);

}  // namespace gpusched::validation
