// validate --trace: a trace against its own simulation, per step and per kernel, as text, JSON and an HTML report part.
#pragma once

#include <string>

#include "gpusched/validation/section.h"
#include "experiments/trace_replay/comparison.h"

namespace gpusched::validation {

/// Per step: measured and simulated span, error, busy times, the GPU's idle share in the simulation,
/// kernel start errors (in % of the step's span) and duration errors; the bottom line the medians.
/// JSON key "trace"; the report part adds every kernel of every step.
class TraceReplayView final : public SectionView {
public:
    explicit TraceReplayView(TraceComparison comparison);
    void print_text(std::ostream& out) const override;
    void add_json(nlohmann::ordered_json& top) const override;
    std::string report_part() const override;

private:
    TraceComparison comparison_;
};

}  // namespace gpusched::validation
