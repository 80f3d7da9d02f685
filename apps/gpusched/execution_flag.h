// The --exec flag of every command that simulates: its help text (scheduler::resolve_run_setup applies the default).
#pragma once

#include <string>

namespace gpusched::cli {

/// The help text of --exec, `scope` first when the flag serves only some modes (e.g. "strip, rake: ").
std::string exec_flag_help(const std::string& scope = "");

}  // namespace gpusched::cli
