// StreamPriorityRange: a GPU's stream priorities in CUDA's numbers (cudaDeviceGetStreamPriorityRange).
#pragma once

#include <string>

namespace gpusched::hw {

/// The priorities a stream may have on a GPU, in CUDA's numbers: `least` (0, the default) down
/// to `greatest` (lower numbers are higher priorities), one level per integer between them.
/// The `streams.priority_range` key of a GPU spec states it; GpuSpec::stream_priorities() gives
/// CUDA's documented rule where a spec does not (docs/gpu-spec.md "streams").
struct StreamPriorityRange {
    int least = 0;
    int greatest = 0;
    /// True when the spec states the range; false when it comes from the rule: a single level
    /// below compute capability 3.5 (CUDA: stream priorities need cc 3.5 or higher), else two
    /// levels, 0 and -1, assumed (the range a GPU reports is not documented per architecture).
    bool stated = true;

    bool operator==(const StreamPriorityRange&) const = default;
    [[nodiscard]] bool contains(int priority) const { return priority <= least && priority >= greatest; }
    [[nodiscard]] int levels() const { return least - greatest + 1; }
    /// "0 (least) down to -5 (greatest)", or "0 (the only level)".
    [[nodiscard]] std::string text() const;
};

}  // namespace gpusched::hw
