// The --policy flag of every command that simulates: its help text (scheduler::resolve_run_setup applies the default).
#pragma once

#include <string>

namespace gpusched::cli {

/// The help text of --policy, `what` naming what it dispatches (e.g. "Dispatch policy of the simulations").
std::string policy_flag_help(const std::string& what = "Dispatch policy");

}  // namespace gpusched::cli
