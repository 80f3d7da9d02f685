// The kernel-generator registry: the named work models a kernel spec can ask for, and the keys every one accepts.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gpusched/workloads/application.h"
#include "gpusched/workloads/kernel_launch.h"
#include "gpusched/workloads/spec_args.h"

namespace gpusched::workloads {

/// One key of a kernel spec, for help texts and error messages.
struct SpecKeyInfo {
    std::string name;    ///< e.g. "duration"
    std::string syntax;  ///< what the value looks like, e.g. "D | D/D/... | LO~HI"
    std::string help;    ///< one line
};

/// A named work model. To add one: write `my_generator.h/.cpp` with a function returning
/// its KernelGeneratorInfo, list that function in generator_registry.cpp and the .cpp in
/// workloads/CMakeLists.txt.
struct KernelGeneratorInfo {
    std::string name;         ///< as written before the ':' of a spec, e.g. "synthetic"
    std::string description;  ///< one line
    /// This generator's own keys (the generic ones are in generic_spec_keys()). A key named like a
    /// generic key replaces it: the generic code leaves it to `build` (apsp-minplus's `block=BS`).
    std::vector<SpecKeyInfo> keys;
    std::string example;      ///< a complete one-line spec
    /// Called with the generic keys already applied to `launch` (grid and block stay at their
    /// defaults when not given: check args.has("blocks") etc.). Reads its own keys from `args`,
    /// sets `launch.work`, and may set grid and block from its own keys.
    std::function<void(SpecArgs& args, KernelLaunch& launch)> build;
    /// Optional: how many identical back-to-back launches (same stream) one spec stands for,
    /// asked of the launch `build` made, e.g. ceil(log2(n-1)) Min-plus steps; at least 1.
    /// Unset means 1. application_from_specs and workload files append that many copies.
    std::function<std::uint64_t(const KernelLaunch& launch)> launches;
    /// Optional: different launches that follow those copies, asked of the launch `build` made
    /// (spmv format=hyb: the COO part after the ELL part). Unset means none.
    std::function<std::vector<KernelLaunch>(const KernelLaunch& launch)> then;
    /// Optional, instead of build / launches / then: every launch of the spec, in issue order, built from
    /// its keys and the launch the generic keys made (sssp: each iteration's kernels of K instances on C
    /// streams). The first becomes SpecLaunches::launch, the others SpecLaunches::then.
    std::function<std::vector<KernelLaunch>(SpecArgs& args, const KernelLaunch& launch)> sequence;
    /// Optional: operations other than kernels (copies, delays) issued after each of the spec's launches,
    /// on that launch's stream, asked of the launch `build` made (streamcluster: the device-to-host copies
    /// of the work array and switch flags after every gain kernel). Unset or empty means none.
    std::function<std::vector<Operation>(const KernelLaunch& launch)> after_each;

    /// "key=SYNTAX key=SYNTAX ..." for this generator's own keys.
    [[nodiscard]] std::string keys_help() const;
};

/// The keys every generator accepts (threads, block, blocks, grid, regs, smem, ...).
const std::vector<SpecKeyInfo>& generic_spec_keys();

/// Every registered generator, in a fixed order.
const std::vector<KernelGeneratorInfo>& kernel_generators();

/// The generator called `name`, or nullptr.
const KernelGeneratorInfo* find_kernel_generator(const std::string& name);

/// "a, b, c": the registered names, for error messages.
std::string kernel_generator_names();

}  // namespace gpusched::workloads
