// Concurrency cases: the runner's concurrent-kernel timelines replayed with their streams, priorities and issue times.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpusched/hw/gpu_spec.h"
#include "gpusched/validation/measured_timeline.h"
#include "gpusched/workloads/application.h"

namespace gpusched::validation {

/// One launch of a case as the runner issued it (DIR/cases.csv, from
/// validation/runner/concurrency_experiment.cu) and as it ran (its timeline, launch_spans.csv).
struct ConcurrencyLaunch {
    std::uint64_t launch = 0;  ///< the `launch` column: issue order within the case
    std::string kernel;
    int stream = 0;
    int priority = 0;          ///< CUDA's number, as the runner created the stream
    int threads = 0;
    std::int64_t smem_bytes = 0;
    double host_wait_us = 0;   ///< the host waited this long before issuing it
    std::uint64_t blocks = 0;
    /// First block start and last block end, relative to the case's first start, in us:
    /// measured (the timeline, the runner's last repetition) and simulated.
    double measured_start_us = 0;
    double measured_end_us = 0;
    double simulated_start_us = 0;
    double simulated_end_us = 0;
    /// The H100's own spread over the repetitions of launch_spans.csv (largest minus smallest), us.
    double start_spread_us = 0;
    double end_spread_us = 0;
};

/// One case: its launches and the span of the whole case (first start to last end).
struct ConcurrencyCase {
    std::string name;
    double measured_span_us = 0;
    double simulated_span_us = 0;
    std::vector<ConcurrencyLaunch> launches;
    /// Per-block timelines (launch, block, SM, start, end), kept only when asked for.
    std::vector<MeasuredBlock> measured_blocks;
    std::vector<MeasuredBlock> simulated_blocks;

    /// 100 (simulated - measured) / measured span, for launch `k`'s start or end.
    [[nodiscard]] double start_error_percent(std::size_t k) const;
    [[nodiscard]] double end_error_percent(std::size_t k) const;
};

/// The application of one case: each launch a kernel of its measured blocks (each block its
/// measured duration) on its stream, of its CUDA priority; launch k is issued after
/// k x overheads.host_launch_interval_ns plus the host waits of launches 0..k (one host thread,
/// one API call per launch), as a delay on its stream before it. Each launch on its own stream.
workloads::Application concurrency_application(const std::vector<ConcurrencyLaunch>& launches,
                                               const MeasuredTimeline& measured, const hw::GpuSpec& gpu);

/// Replays every case of `dir` (cases.csv lists them; timeline_CASE.csv and launch_spans.csv
/// hold the measurements) with `policy` on `gpu` in `fixed` execution, in cases.csv order. With
/// policy `walk`, each case starts the dispatch walk where its launch 0 did (walk_start_of).
/// InputError naming the file and line for malformed or inconsistent data.
std::vector<ConcurrencyCase> validate_concurrency(const std::string& dir, const hw::GpuSpec& gpu,
                                                  const std::string& policy, bool keep_blocks = false);

}  // namespace gpusched::validation
