// Kernel specs: one-line `NAME:key=value,...` launches, the generic keys, and --kernel applications.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/workloads/application.h"
#include "gpusched/workloads/kernel_launch.h"
#include "gpusched/workloads/spec_args.h"

namespace gpusched::workloads {

/// Input sanity bounds of the generic keys (the GPU's own limits are checked later, by occupancy).
constexpr std::int64_t kMaxSpecThreads = std::int64_t{1} << 20;
constexpr std::int64_t kMaxSpecBlocks = std::int64_t{1} << 40;
constexpr std::int64_t kMaxGridDim = (std::int64_t{1} << 31) - 1;
constexpr std::int64_t kMaxSpecRegisters = 65536;
constexpr std::int64_t kMaxSpecSharedBytes = std::int64_t{1} << 40;
constexpr std::int64_t kMaxSpecBarriers = 65536;
constexpr std::int64_t kMaxStreamId = 1023;
constexpr std::size_t kMaxSpecLength = 65536;

/// Parses `NAME`, or `NAME:key=value,key=value,...`, into one launch. `where` names the
/// source in messages ("--kernel" or "FILE:LINE"). Throws InputError for an unknown name
/// (listing the known ones), an unknown key (listing the allowed ones), a duplicate key,
/// or a bad value (naming the key and what is allowed).
KernelLaunch parse_kernel_spec(const std::string& spec, const std::string& where);

/// Builds one launch from already-split keys: applies the generic keys, then the
/// generator named by args.kernel(). The one-line and workload-file forms both end here.
KernelLaunch build_kernel_launch(SpecArgs& args);

/// A grid of `blocks` blocks with each dimension at most kMaxGridDim: {B,1,1} where it fits,
/// else {X,Y,1} with X*Y == B and Y as small as possible; nullopt where no such X, Y exist.
std::optional<Dim3> grid_for_blocks(std::uint64_t blocks);

/// One launch per spec, in order (repeated --kernel flags). Messages name "--kernel", or
/// "--kernel #I" (1-based) when there are several.
Application application_from_specs(const std::vector<std::string>& specs);

}  // namespace gpusched::workloads
