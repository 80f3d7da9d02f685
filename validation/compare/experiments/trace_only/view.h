// The `trace_only` section of gpusched validate: traces imported without Nsight Compute, predicted on K SMs and on another GPU.
#pragma once

#include <string>

#include "gpusched/validation/section.h"
#include "experiments/trace_only/comparison.h"

namespace gpusched::validation {

/// The trace-only comparison: the whatif tables for torch/ and torch_shapes/ imported without the
/// ncu join, and per workload the other GPU's busy time predicted from the reference trace; JSON
/// key "trace_only".
class TraceOnlyView final : public SectionView {
public:
    TraceOnlyView(TraceOnlyComparison comparison, std::string dir);
    void print_text(std::ostream& out) const override;
    void add_json(nlohmann::ordered_json& top) const override;
    std::string report_part() const override;

private:
    TraceOnlyComparison comparison_;
    std::string dir_;
};

/// Compares torch/ (torch_shapes/, the other GPU's torch/ when present) by validate_trace_only, skipped without torch/.
class TraceOnlySection final : public ValidationSection {
public:
    std::string name() const override { return "trace-only"; }
    std::string description() const override;
    std::string input() const override { return "torch"; }
    std::unique_ptr<SectionView> run(const std::string& data_dir, const SectionSettings& settings) const override;
};

}  // namespace gpusched::validation
