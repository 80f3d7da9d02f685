// The --sms and --set flags: a what-if GPU (fewer SMs, any spec key changed) on every command that takes --gpu.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "gpusched/hw/gpu_spec.h"

namespace gpusched::cli {

/// What --sms and --set asked for, in the order given.
struct GpuWhatIf {
    std::vector<std::string> sms;   ///< --sms K (at most one)
    std::vector<std::string> sets;  ///< --set KEY=VALUE, repeatable
};

/// Adds --sms K and --set KEY=VALUE to `cmd`, filling `what_if`.
void add_gpu_what_if_options(CLI::App* cmd, GpuWhatIf& what_if);

/// The GPU `gpu` (preset or file) with the what-if applied (hw::resolve_gpu_with_overrides): --sms K
/// is --set sm_count=K, applied first; the name becomes e.g. "h100 (sm_count=64)". Bad values are
/// InputErrors naming the flag and the key ("--sms 0: key 'sm_count': expected an integer in [1,
/// 100000], got '0'").
hw::GpuSpec resolve_gpu_what_if(const std::string& gpu, const GpuWhatIf& what_if);

}  // namespace gpusched::cli
