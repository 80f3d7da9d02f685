// The --exec flag of every command that simulates, and the default they share with simulate.
#include "execution_flag.h"

#include "gpusched/sim/execution/execution_model.h"

namespace gpusched::cli {

std::string exec_flag_help(const std::string& scope) {
    return scope +
           "Execution model: fixed (each block runs its given duration), shared (blocks share an SM's issue "
           "slots; needs per-warp work), or auto (shared when every launch has per-warp work, else fixed); "
           "default: the GPU's defaults.execution, else auto";
}

std::string execution_for(const std::optional<std::string>& flag, const hw::GpuSpec& gpu) {
    if (flag) return *flag;
    return gpu.default_execution.empty() ? std::string(sim::kDefaultExecutionModel) : gpu.default_execution;
}

}  // namespace gpusched::cli
