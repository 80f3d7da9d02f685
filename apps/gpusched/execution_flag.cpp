// The --exec flag of every command that simulates: its help text (scheduler::resolve_run_setup applies the default).
#include "execution_flag.h"

namespace gpusched::cli {

std::string exec_flag_help(const std::string& scope) {
    return scope +
           "Execution model: fixed (each block runs its given duration), shared (blocks share an SM's issue "
           "slots; needs per-warp work), or auto (shared when every launch has per-warp work, else fixed); "
           "default: the GPU's defaults.execution, else auto";
}

}  // namespace gpusched::cli
