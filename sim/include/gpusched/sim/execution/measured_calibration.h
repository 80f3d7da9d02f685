// Engine calibration of measured launches: each one's floor scaled until the engine, running it alone on its reference GPU, takes its measured duration.
#pragma once

#include <memory>

#include "gpusched/sim/dispatch_policy.h"
#include "gpusched/workloads/application.h"

namespace gpusched::sim {

/// The measured rule (docs/workloads.md) derives a launch's latency floor in closed form from its
/// measured duration T, with the reference GPU's overheads estimated by formula. The engine's own
/// overheads differ a little (e.g. a wave's blocks end at staggered times under the `queue` issue
/// model, so the completion backlog the formula assumes does not build up), so a launch alone on its
/// reference GPU can come out a few percent off T. This pass closes that gap — calibration on the
/// same measurement, as the rule itself is:
///
///   for each distinct measured launch with a floor, or DRAM-bound (KernelWork::calibration_target()):
///     t(k) = the launch alone on its reference GPU preset, floor (DRAM-bound: its DRAM bytes) x k,
///            `shared` model, `policy`
///     k_0 = 1; k_1 = T / t(1); then secant steps on t(k) = T, at most 6 runs, k in [0.05, 20],
///     stopping within 0.1% of T; the k of the run closest to T is kept
///
/// Launches are distinct by their work object and shape (identical launches share the result).
/// The result of each distinct launch is remembered for the process, keyed on what it depends on
/// (the launch's shape, its work exactly, the reference GPU's name, the policy's type and name), so
/// a validation or sweep that simulates one application on many GPUs calibrates each launch once;
/// the search is deterministic, so the outputs are those of a fresh search (at most 65536 launches
/// are remembered, then the memory starts over).
/// Nothing is fitted on the GPU simulated: a what-if binds the calibrated floor as it would the
/// closed-form one. Returns nullptr when the application has no such launch (then nothing
/// changes); otherwise a copy whose measured works are replaced by calibrated ones.
std::unique_ptr<workloads::Application> calibrate_measured_launches(const workloads::Application& app,
                                                                    const DispatchPolicy& policy);

}  // namespace gpusched::sim
