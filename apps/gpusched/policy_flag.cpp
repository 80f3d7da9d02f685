// The --policy flag of every command that simulates, and the default it shares with simulate.
#include "policy_flag.h"

#include "gpusched/scheduler/registry.h"

namespace gpusched::cli {

std::string policy_flag_help(const std::string& what) {
    return what + " (gpusched list policies); default: the GPU's defaults.policy, else " + scheduler::default_policy();
}

std::string policy_for(const std::optional<std::string>& flag, const hw::GpuSpec& gpu) {
    if (flag) return *flag;
    return gpu.default_policy.empty() ? scheduler::default_policy() : gpu.default_policy;
}

}  // namespace gpusched::cli
