// Work totals of imported kernels: family, the operator's bytes or FLOPs shared among its kernels, else the bandwidth, efficiency or duration rule.
#include "gpusched/importers/kernel_totals.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "gpusched/hw/roofline.h"
#include "gpusched/importers/kernel_dtype.h"
#include "gpusched/importers/kernel_family.h"
#include "gpusched/importers/op_work.h"
#include "gpusched/workloads/measured_work.h"

namespace gpusched::importers {

namespace {

constexpr double kMaxTotal = 1e18;  // the workload keys' cap on flops and bytes (docs/workloads.md)

/// Where one kernel's work comes from before it is shared out.
struct Source {
    int work_op = -1;  ///< the operator whose bytes or FLOPs it shares; -1 none
    bool from_profiler = false;
    double amount = 0;  ///< the operator's bytes or FLOPs
    std::string dtype;
};

std::string milliseconds(TraceTime ps) {
    char text[48];
    std::snprintf(text, sizeof text, "%.3f ms", static_cast<double>(ps) / 1e9);
    return text;
}

/// Counts kernels per reason their shapes gave nothing.
class ProblemCounter {
public:
    void add(const std::string& family, const std::string& problem, bool inconsistent) {
        if (!problem.empty()) ++counts_[{problem, inconsistent}][family];
    }
    [[nodiscard]] std::vector<std::string> notes() const {
        std::vector<std::string> out;
        for (const auto& [key, by_family] : counts_) {
            std::size_t n = 0;
            std::string families;
            for (const auto& [family, count] : by_family) {
                n += count;
                families += (families.empty() ? "" : ", ") + family + " " + std::to_string(count);
            }
            out.push_back(std::to_string(n) + (n == 1 ? " kernel" : " kernels") + " without totals from shapes: " + key.first + " (" +
                          families + (key.second ? "); duration only" : "); the bandwidth or duration rule applies"));
        }
        return out;
    }

private:
    std::map<std::pair<std::string, bool>, std::map<std::string, std::size_t>> counts_;
};

}  // namespace

ImportTotals estimate_kernel_totals(const ImportedTrace& trace, const ImportedApplication& app, const OpShapes& shapes,
                                    const hw::GpuSpec& reference, const TotalsRules& rules) {
    ImportTotals totals;
    totals.by_op.resize(trace.ops.size());
    totals.trace_has_shapes = shapes.ops_with_shapes > 0;
    // GB/s are bytes per ns: x 1e-3 per ps.
    const std::optional<double> dram_gbps = reference.dram_bandwidth_gbps;
    std::optional<double> rule_gbps = dram_gbps;
    if (rule_gbps && reference.sm_dram_bandwidth_gbps)
        rule_gbps = std::min(*rule_gbps, reference.sm_count * *reference.sm_dram_bandwidth_gbps);

    ProblemCounter problems;
    std::vector<std::uint32_t> kernels;
    std::vector<Source> sources(trace.ops.size());
    std::map<int, TraceTime> group_time;  // operator -> measured time of the kernels sharing its work
    std::map<int, std::size_t> group_size;
    for (const AppItem& item : app.items) {
        if (item.kind != AppItem::Kind::kernel) continue;
        const GpuOp& op = trace.ops[item.op];
        const FamilyMatch match = classify_kernel(trace.names[op.name], op.grid);
        KernelTotals k;
        k.family = match.family;
        k.rule = match.rule;
        totals.by_op[item.op] = k;
        kernels.push_back(item.op);
        const FamilyKind kind = family_kind(match.family);
        if (kind == FamilyKind::none || !totals.trace_has_shapes) continue;
        const int cpu = shapes.op_of_kernel(op.event_index);
        if (cpu < 0) {
            problems.add(k.family, "no operator linked (no External id or runtime call to match)", false);
            continue;
        }
        Source& s = sources[item.op];
        if (kind == FamilyKind::memory) {
            const OpEstimate bytes = op_bytes(shapes.ops[cpu], k.family);
            problems.add(k.family, bytes.problem, bytes.inconsistent);
            if (!bytes.value) {
                if (bytes.inconsistent) totals.by_op[item.op]->work_from = "inconsistent";
                continue;
            }
            if (!(*bytes.value <= kMaxTotal)) {
                problems.add(k.family, "more than 10^18 bytes", true);
                totals.by_op[item.op]->work_from = "inconsistent";
                continue;
            }
            s = {cpu, false, *bytes.value, ""};
        } else {
            // The innermost operator with the profiler's FLOPs; else the innermost whose shapes give them.
            for (int o = cpu; o >= 0 && s.work_op < 0; o = shapes.ops[o].parent)
                if (shapes.ops[o].flops) s = {o, true, *shapes.ops[o].flops, op_dtype(shapes.ops[o])};
            OpEstimate first_problem;
            for (int o = cpu; o >= 0 && s.work_op < 0; o = shapes.ops[o].parent) {
                const OpEstimate flops = op_flops(shapes.ops[o]);
                if (flops.value) s = {o, false, *flops.value, op_dtype(shapes.ops[o])};
                else if (first_problem.problem.empty()) first_problem = flops;
            }
            if (s.work_op < 0) {
                problems.add(k.family, first_problem.problem.empty() ? "no operator with FLOPs or matrix/convolution/attention shapes"
                                                                     : first_problem.problem,
                             first_problem.inconsistent);
                if (first_problem.inconsistent) totals.by_op[item.op]->work_from = "inconsistent";
                continue;
            }
            if (s.amount <= 0 || s.amount > kMaxTotal) {
                problems.add(k.family, s.amount <= 0 ? "zero FLOPs" : "more than 10^18 FLOPs", true);
                totals.by_op[item.op]->work_from = "inconsistent";
                s.work_op = -1;
                continue;
            }
        }
        group_time[s.work_op] += std::max<TraceTime>(op.duration, 0);
        ++group_size[s.work_op];
    }
    totals.notes = problems.notes();

    std::map<std::pair<std::string, std::string>, std::size_t> no_rule;  // (why, family) -> compute kernels the efficiency rule missed
    for (const std::uint32_t index : kernels) {
        const GpuOp& op = trace.ops[index];
        KernelTotals& k = *totals.by_op[index];
        const Source& s = sources[index];
        const FamilyKind kind = family_kind(k.family);
        const bool inconsistent = k.work_from == "inconsistent";
        k.work_from = "duration";
        if (s.work_op >= 0) {
            // Shared among the operator's kernels of this kind by their measured time (equally when all are 0).
            const TraceTime all = group_time[s.work_op];
            const double share = all > 0 ? static_cast<double>(std::max<TraceTime>(op.duration, 0)) / static_cast<double>(all)
                                         : 1.0 / static_cast<double>(group_size[s.work_op]);
            const double amount = s.amount * share;
            if (kind == FamilyKind::memory) {
                const double cap = dram_gbps ? *dram_gbps * 1e-3 * static_cast<double>(op.duration) : amount;
                k.dram_bytes = std::round(std::min(amount, cap));
                if (amount > cap) k.l2_bytes = std::round(amount - cap);
                k.work_from = "shapes";
                ++totals.shape_bytes;
            } else {
                k.flops = std::round(amount);
                k.dtype = s.dtype;
                // float tensors on tensor cores: the kernel's name says tf32 (sm80_xmma_..._tf32f32, cutlass s1688gemm).
                if (k.dtype == "fp32" && kernel_name_dtype(trace.names[op.name]) == "tf32") k.dtype = "tf32";
                k.work_from = s.from_profiler ? "profiler-flops" : "shapes";
                ++totals.shape_flops;
            }
        } else if (!inconsistent && kind == FamilyKind::memory && rule_gbps && op.duration >= rules.bandwidth_rule_min) {
            k.dram_bytes = std::round(*rule_gbps * 1e-3 * static_cast<double>(op.duration));
            k.work_from = "bandwidth-rule";
        } else if (!inconsistent && kind == FamilyKind::compute && op.duration >= rules.bandwidth_rule_min) {
            // The efficiency rule: the kernel ran at its family's measured fraction of the reference's peak
            // for the dtype its name states, on min(blocks, SMs) SMs.
            const std::string dtype = kernel_name_dtype(trace.names[op.name]);
            const auto efficiency = hw::library_efficiency(reference, k.family);
            const auto rate = dtype.empty() ? std::nullopt : workloads::flops_per_sm_cycle(reference, dtype);
            if (dtype.empty()) ++no_rule[{"no dtype in its name", k.family}];
            else if (!efficiency) ++no_rule[{reference.name + " gives no execution.library_efficiency." + k.family, k.family}];
            else if (!rate || !reference.clock_mhz) ++no_rule[{reference.name + " gives no " + dtype + " rate or clock", k.family}];
            if (efficiency && rate && reference.clock_mhz) {
                const double blocks = static_cast<double>(std::uint64_t{op.grid[0]} * op.grid[1] * op.grid[2]);
                const double sms = std::min(blocks, static_cast<double>(reference.sm_count));
                // FLOPs per SM per cycle x MHz = FLOPs per us; x 1e-6 per ps.
                k.flops = std::round(*efficiency * *rate * *reference.clock_mhz * sms * 1e-6 * static_cast<double>(op.duration));
                k.dtype = dtype;
                k.work_from = "efficiency-rule";
            }
        }
    }

    std::map<std::string, std::pair<std::size_t, std::string>> why_counts;  // why -> (kernels, "gemm 2, conv 1")
    for (const auto& [key, n] : no_rule) {
        auto& [count, families] = why_counts[key.first];
        count += n;
        families += (families.empty() ? "" : ", ") + key.second + " " + std::to_string(n);
    }
    for (const auto& [why, c] : why_counts)
        totals.notes.push_back(std::to_string(c.first) + (c.first == 1 ? " compute kernel" : " compute kernels") +
                               " of 10 us or more without FLOPs and no efficiency rule: " + why + " (" + c.second + "); duration only");

    for (const auto& name : workloads::kernel_family_names()) {
        FamilyTotals f;
        f.family = name;
        for (const std::uint32_t index : kernels) {
            const KernelTotals& k = *totals.by_op[index];
            if (k.family != name) continue;
            const TraceTime t = std::max<TraceTime>(trace.ops[index].duration, 0);
            ++f.kernels;
            f.time += t;
            if (k.work_from == "bandwidth-rule" || k.work_from == "efficiency-rule" || k.work_from == "duration")
                ++f.rule_kernels, f.rule_time += t;
            f.from_shapes += k.work_from == "shapes";
            f.from_flops += k.work_from == "profiler-flops";
            f.from_bandwidth += k.work_from == "bandwidth-rule" || k.work_from == "efficiency-rule";
        }
        if (f.kernels > 0) totals.families.push_back(f);
    }
    return totals;
}

std::vector<std::string> family_summary_lines(const ImportTotals& totals) {
    std::vector<std::string> lines;
    for (const FamilyTotals& f : totals.families) {
        const std::size_t data = f.kernels - f.rule_kernels;
        std::string line = "family " + f.family + ": " + std::to_string(f.kernels) + (f.kernels == 1 ? " kernel, " : " kernels, ") +
                           milliseconds(f.time) + "; from data " + std::to_string(data) + " (" + milliseconds(f.time - f.rule_time) + ")";
        if (data > 0) line += " [shapes " + std::to_string(f.from_shapes) + ", profiler-flops " + std::to_string(f.from_flops) + "]";
        line += ", on a rule " + std::to_string(f.rule_kernels) + " (" + milliseconds(f.rule_time) + ")";
        if (f.rule_kernels > 0)
            line += std::string(family_kind(f.family) == FamilyKind::compute ? " [efficiency-rule " : " [bandwidth-rule ") +
                    std::to_string(f.from_bandwidth) + ", duration " + std::to_string(f.rule_kernels - f.from_bandwidth) + "]";
        lines.push_back(line);
    }
    return lines;
}

}  // namespace gpusched::importers
