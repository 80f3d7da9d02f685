// Application: kernel launches on streams, as the host issues them.
#pragma once

#include <string>
#include <vector>

#include "gpusched/workloads/kernel_launch.h"

namespace gpusched::workloads {

/// Stream priority levels (CUDA exposes two on most GPUs: greatest and least).
enum class StreamPriority { normal = 0, high = 1 };

/// One stream: FIFO order of its launches, a priority, and an optional SM mask
/// (spatial partitioning: its blocks run only on the listed SMs; empty = all SMs).
struct StreamConfig {
    int id = 0;
    StreamPriority priority = StreamPriority::normal;
    std::vector<int> sm_mask;
};

/// Launches in host issue order. Launches on the same stream run in that order; launches on
/// different streams may overlap. Streams not listed in `streams` are normal-priority, unmasked.
struct Application {
    std::string description;  ///< what this is, for summaries ("synthetic:blocks=265,...")
    std::vector<StreamConfig> streams;
    std::vector<KernelLaunch> launches;

    /// The configuration of stream `id` (a default one if not listed).
    [[nodiscard]] StreamConfig stream(int id) const {
        for (const auto& s : streams)
            if (s.id == id) return s;
        StreamConfig s;
        s.id = id;
        return s;
    }
};

}  // namespace gpusched::workloads
