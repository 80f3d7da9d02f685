// Kernel specs: one-line `NAME:key=value,...` launches, the generic keys, and --kernel applications.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/workloads/application.h"
#include "gpusched/workloads/kernel_launch.h"
#include "gpusched/workloads/kernel_spec_value.h"
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
constexpr std::uint64_t kMaxSpecApplicationLaunches = 1'000'000;  ///< as a workload file's limit

/// One spec's launch and how many identical back-to-back copies of it the spec stands for
/// (KernelGeneratorInfo::launches; 1 for single-launch generators).
struct SpecLaunches {
    KernelLaunch launch;
    std::uint64_t count = 1;
    std::vector<KernelLaunch> then;  ///< different launches after the copies (KernelGeneratorInfo::then)
    std::vector<Operation> after_each;  ///< non-kernel operations after each launch (KernelGeneratorInfo::after_each)

    /// count copies of launch, then `then`: the spec's launches in issue order.
    [[nodiscard]] std::uint64_t total() const { return count + then.size(); }
    /// The copies share one record (LaunchList::append_copies).
    void append_to(LaunchList& out) const {
        out.append_copies(launch, static_cast<std::size_t>(count));
        for (const KernelLaunch& next : then) out.push_back(next);
    }
    /// Appends the launches to app.launches. When the spec has `after_each` operations, or app already
    /// lists operations, it also appends one kernel operation per launch, each followed by `after_each`
    /// on the launch's stream (listing the earlier launches first if app had no operations yet).
    void append_to(Application& app) const;
};

/// Parses `NAME`, or `NAME:key=value,key=value,...`, into one launch (for a multi-launch
/// generator such as apsp-minplus, one of its identical launches: see
/// parse_kernel_spec_launches). `where` names the source in messages ("--kernel" or
/// "FILE:LINE"). Throws InputError for an unknown name (listing the known ones), an unknown
/// key (listing the allowed ones), a duplicate key, or a bad value (naming the key and what
/// is allowed). KernelSpec::parse, then build_kernel_launches.
KernelLaunch parse_kernel_spec(const std::string& spec, const std::string& where);

/// As parse_kernel_spec, with the number of launches the spec stands for.
SpecLaunches parse_kernel_spec_launches(const std::string& spec, const std::string& where);

/// Builds one launch from already-split keys: applies the generic keys, then the
/// generator named by args.kernel(). The one-line and workload-file forms both end here.
KernelLaunch build_kernel_launch(SpecArgs& args);

/// As build_kernel_launch, with the number of launches the spec stands for.
SpecLaunches build_kernel_launches(SpecArgs& args);

/// The launches of a parsed (and perhaps edited) spec; messages name spec.where().
SpecLaunches build_kernel_launches(const KernelSpec& spec);

/// A grid of `blocks` blocks with each dimension at most kMaxGridDim: {B,1,1} where it fits,
/// else {X,Y,1} with X*Y == B and Y as small as possible; nullopt where no such X, Y exist.
std::optional<Dim3> grid_for_blocks(std::uint64_t blocks);

/// The launches of each spec, in order: one per spec, or the generator's launch count of
/// identical launches (apsp-minplus, apsp-fw). At most kMaxSpecApplicationLaunches in all.
/// Messages name `where` ("kernel spec"; the command line says "--kernel"), or "WHERE #I"
/// (1-based) when there are several.
Application application_from_specs(const std::vector<std::string>& specs, const std::string& where = "kernel spec");

/// As application_from_specs for specs already parsed: messages name each spec's where(); the
/// description is the specs as written, separated by blanks.
Application build_application(const std::vector<KernelSpec>& specs);

}  // namespace gpusched::workloads
