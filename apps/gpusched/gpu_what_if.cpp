// The --sms and --set flags, turned into GPU key overrides.
#include "gpu_what_if.h"

#include "gpusched/hw/gpu_overrides.h"
#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/support/input_error.h"

namespace gpusched::cli {

void add_gpu_what_if_options(CLI::App* cmd, GpuWhatIf& what_if) {
    cmd->add_option("--sms", what_if.sms,
                    "What-if: the GPU with K SMs (same as --set sm_count=K; a measured SM topology keeps SMs "
                    "0..K-1, docs/gpu-spec.md)")
        ->type_name("K");
    cmd->add_option("--set", what_if.sets,
                    "What-if: set a GPU spec key, e.g. sm_count=64, limits.max_blocks_per_sm=16, "
                    "memory.dram_bandwidth_gbps=6700 (repeatable; keys: docs/gpu-spec.md)")
        ->type_name("KEY=VALUE");
}

hw::GpuSpec resolve_gpu_what_if(const std::string& gpu, const GpuWhatIf& what_if) {
    if (what_if.sms.size() > 1) throw InputError("--sms: give it once (got " + std::to_string(what_if.sms.size()) + ")");
    hw::GpuOverrides overrides;
    std::vector<std::string> written;
    for (const auto& k : what_if.sms) {
        overrides.emplace_back("sm_count", k);
        written.push_back("--sms " + k);
    }
    for (const auto& text : what_if.sets) {
        auto override = hw::parse_gpu_override(text, "--set");
        for (const auto& [path, value] : overrides)
            if (path == override.first)
                throw InputError("--set " + text + ": key '" + path + "' is already set" +
                                 (what_if.sms.empty() || path != "sm_count" ? "" : " by --sms"));
        overrides.push_back(std::move(override));
        written.push_back("--set " + text);
    }
    return hw::resolve_gpu_with_overrides(gpu, overrides, written);
}

}  // namespace gpusched::cli
