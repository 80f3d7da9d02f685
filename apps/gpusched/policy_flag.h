// The --policy flag of every command that simulates, and the default it shares with simulate.
#pragma once

#include <optional>
#include <string>

#include "gpusched/hw/gpu_spec.h"

namespace gpusched::cli {

/// The help text of --policy, `what` naming what it dispatches (e.g. "Dispatch policy of the simulations").
std::string policy_flag_help(const std::string& what = "Dispatch policy");

/// The dispatch policy a command runs with: --policy when given (the registry refuses an unknown
/// name), else the GPU's defaults.policy, else the registry's default -- simulate's rule.
std::string policy_for(const std::optional<std::string>& flag, const hw::GpuSpec& gpu);

}  // namespace gpusched::cli
