// The --policy flag of every command that simulates: its help text (scheduler::resolve_run_setup applies the default).
#include "policy_flag.h"

#include "gpusched/scheduler/registry.h"

namespace gpusched::cli {

std::string policy_flag_help(const std::string& what) {
    return what + " (gpusched list policies); default: the GPU's defaults.policy, else " + scheduler::default_policy();
}

}  // namespace gpusched::cli
