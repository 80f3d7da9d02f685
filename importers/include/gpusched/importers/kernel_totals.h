// Work totals of imported kernels from what a trace carries: the family, the operator's shapes and FLOPs, or the bandwidth rule.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/hw/gpu_spec.h"
#include "gpusched/importers/imported_application.h"
#include "gpusched/importers/imported_trace.h"
#include "gpusched/importers/op_shapes.h"

namespace gpusched::importers {

/// The rules' settings (docs/importing.md "Work from the trace").
struct TotalsRules {
    /// The bandwidth rule applies to memory-family kernels at least this long: 10 us, a kernel of
    /// several waves (validation/data/h100/torch at 132 SMs: every memory kernel under one wave runs
    /// 1.3-5.3 us, every one of 10 waves or more 31 us or longer; docs/importing.md).
    /// So does the efficiency rule to compute-family kernels without FLOPs (the same reason: a kernel
    /// that long is several waves or long blocks, not launch and latency).
    TraceTime bandwidth_rule_min = 10'000'000;
};

/// What one kernel's workload item says about its work.
struct KernelTotals {
    std::string family;                ///< kernel_family.h
    int rule = -1;                     ///< the family table's row, -1 the fallback
    std::string work_from = "duration";  ///< shapes, profiler-flops, bandwidth-rule, efficiency-rule, duration (ncu: `import ncu`)
    std::optional<double> dram_bytes, l2_bytes, flops;
    std::string dtype;                 ///< "" unknown
};

/// Per family: kernels and measured time, and the part that rests on a rule rather than data.
struct FamilyTotals {
    std::string family;
    std::size_t kernels = 0, rule_kernels = 0;
    TraceTime time = 0, rule_time = 0;
    std::size_t from_shapes = 0, from_flops = 0, from_bandwidth = 0;  ///< from_bandwidth: the bandwidth or efficiency rule
};

/// The totals of an import's kernels.
struct ImportTotals {
    std::vector<std::optional<KernelTotals>> by_op;  ///< indexed like ImportedTrace::ops; set for imported kernels
    std::vector<FamilyTotals> families;               ///< in kernel_family_names() order, families with kernels
    std::vector<std::string> notes;                   ///< counted notes: kernels whose shapes were missing or inconsistent
    std::size_t shape_bytes = 0, shape_flops = 0;     ///< kernels with bytes from shapes, FLOPs from shapes or args.flops
    bool trace_has_shapes = false;
};

/// Classifies every imported kernel and estimates its totals (docs/importing.md "Work from the trace"):
/// memory families from their operator's tensor bytes (split DRAM / L2 at the reference GPU's
/// memory.dram_bandwidth_gbps), compute families from the operator's FLOPs, otherwise the bandwidth
/// rule for long memory kernels, else the duration alone. `shapes` may be empty (a trace without
/// record_shapes). Numbers of the GPU come from `reference` only.
ImportTotals estimate_kernel_totals(const ImportedTrace& trace, const ImportedApplication& app, const OpShapes& shapes,
                                    const hw::GpuSpec& reference, const TotalsRules& rules = {});

/// One line per family: "conv: 126 kernels, 3.456 ms; on data 120 (3.100 ms), on a rule 6 (0.356 ms)".
std::vector<std::string> family_summary_lines(const ImportTotals& totals);

}  // namespace gpusched::importers
