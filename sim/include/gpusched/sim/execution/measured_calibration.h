// Engine calibration of measured launches: each one's floor scaled until the engine, running it alone on its reference GPU, takes its measured duration.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "gpusched/sim/dispatch_policy.h"
#include "gpusched/workloads/application.h"
#include "gpusched/workloads/workload_document.h"

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
///
/// A launch whose work carries a calibration written into the workload (keys calibrated_floor and
/// calibration, by `gpusched import`: engine_calibration below) takes that scale without a search
/// when its label is the one this run would write for it: the same version, policy, launch shape,
/// work and reference preset (its YAML), and the scale itself. Otherwise the label is stale or
/// foreign: the launch is calibrated again, and its work says so in a note.
std::unique_ptr<workloads::Application> calibrate_measured_launches(const workloads::Application& app,
                                                                    const DispatchPolicy& policy);

/// The version of the calibration search, the first part of every label: a change to the search, to
/// the engine or to the `shared` model that can move a calibration's result must change it, so that
/// workloads imported before are calibrated again.
inline constexpr std::string_view kCalibrationVersion = "gpusched-calibration-1";

/// A launch's engine calibration as the workload writes it: the scale exactly (shortest round-trip
/// text) and its label "VERSION/POLICY/FINGERPRINT" (FNV-1a of the launch's shape and work, the
/// reference preset's YAML and the scale).
struct WrittenCalibration {
    std::string scale;
    std::string label;
};

/// The calibration of `launch` under `policy` (searched, or remembered for the process), for
/// `gpusched import` to write; nullopt when its work has no calibration target (any stored
/// calibration on the work is not used: this is the search's own answer).
std::optional<WrittenCalibration> engine_calibration(const workloads::KernelLaunch& launch, const DispatchPolicy& policy);

/// The label a calibration of `launch` by `scale` under `policy` is written with (nullopt when its work has
/// no calibration target).
std::optional<std::string> calibration_label(const workloads::KernelLaunch& launch, const DispatchPolicy& policy,
                                             double scale);

/// Writes the engine calibration of each `kernel` item of `document` that has one (a measured launch
/// with a floor, or DRAM-bound) as its keys calibrated_floor and calibration, after its other keys;
/// earlier such keys are replaced, and removed from items that no longer have a calibration. Each
/// item is built alone (its streams and partitions from the document). Returns the items written.
std::size_t write_engine_calibrations(workloads::WorkloadDocument& document, const DispatchPolicy& policy);

}  // namespace gpusched::sim
