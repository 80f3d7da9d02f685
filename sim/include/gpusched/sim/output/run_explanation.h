// write_explanation: a run told in plain words with numbers (occupancy, waves, tail, partial blocks, streams, binds, time).
#pragma once

#include <ostream>
#include <string>

#include "gpusched/hw/gpu_spec.h"
#include "gpusched/sim/occupancy_table.h"
#include "gpusched/sim/output/summary_collector.h"
#include "gpusched/sim/output/time_account.h"
#include "gpusched/workloads/application.h"

namespace gpusched::sim {

/// What the explanation reads: the run's inputs, its summary and its time account.
struct ExplainInput {
    const hw::GpuSpec& gpu;
    const workloads::Application& app;
    const OccupancyTable& occupancy;
    const RunSummary& summary;
    const TimeAccount& account;
};

/// The narrative, one paragraph per topic, for each distinct kernel shape (name, blocks, threads,
/// registers, shared memory): its occupancy and the limit that binds it, with the change that would
/// give one more block per SM (hw::compute_occupancy on the changed request); its waves (full, and
/// the blocks of the partial last one); its partial blocks and their inactive warps (counted over
/// its first 1,000,000 blocks); then per stream what its launches waited for; what bound the
/// launches (Binding, with the model's terms); and where the time went (write_time_account_text).
/// Deterministic: the same inputs give the same text.
void write_explanation(std::ostream& out, const ExplainInput& input);

/// The sentence on lifting `launch`'s occupancy by one block per SM, or "" when its SM is full of
/// warps or the launch has no more blocks than fit at once.
std::string occupancy_lift(const hw::GpuSpec& gpu, const workloads::KernelLaunch& launch,
                           const hw::OccupancyResult& occupancy);

}  // namespace gpusched::sim
