// The --exec flag of every command that simulates, and the default they share with simulate.
#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "gpusched/hw/gpu_spec.h"

namespace gpusched::cli {

/// The help text of --exec, `scope` first when the flag serves only some modes (e.g. "strip, rake: ").
std::string exec_flag_help(const std::string& scope = "");

/// The execution model a command runs with: --exec when given (as given; the command or the engine
/// refuses an unknown name), else the GPU's defaults.execution, else auto -- simulate's rule.
std::string execution_for(const std::optional<std::string>& flag, const hw::GpuSpec& gpu);

}  // namespace gpusched::cli
