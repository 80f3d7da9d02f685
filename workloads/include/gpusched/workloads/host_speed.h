// A what-if on the host's CPU: every host thread's CPU times (its calls and the gaps between them) divided by a speed.
#pragma once

#include <string>

#include "gpusched/support/time.h"
#include "gpusched/workloads/application.h"

namespace gpusched::workloads {

/// The speeds scale_host_speed accepts: a CPU from 100x slower to 100x faster than the trace's.
constexpr double kMinHostSpeed = 0.01;
constexpr double kMaxHostSpeed = 100.0;

/// The host's own work: the sum over every thread's calls of `gap` + `cpu` (docs/workloads.md
/// "Host timeline"). Neither depends on the GPU (a sync's `cpu` is what it spends after the work
/// it waited for ended), so two recordings of one program compare their CPUs by this number.
[[nodiscard]] Time host_work(const Application& app);

/// Runs the host `speed` times as fast: every call's `gap` and `cpu` divided by `speed`, rounded to
/// the nearest picosecond; what the GPU does is unchanged, so the simulation decides anew what the
/// CPU waits for. Throws InputError naming `what` for a speed outside [kMinHostSpeed, kMaxHostSpeed]
/// (or not a number) and for an application without a host timeline (nothing to scale).
void scale_host_speed(Application& app, double speed, const std::string& what);

}  // namespace gpusched::workloads
