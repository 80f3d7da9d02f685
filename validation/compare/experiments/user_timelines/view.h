// The user-timelines view of gpusched validate (timelines of a directory the command line names): text table, JSON and a report part.
#pragma once

#include <string>

#include "gpusched/validation/section.h"
#include "experiments/user_timelines/comparison.h"

namespace gpusched::validation {

/// Per file: measured vs simulated span, per-SM block counts (range in the text, every SM in
/// JSON and the report's chart), waves, start-time KS distance, and per launch the spans when a
/// file has several; the bottom line counts files within 2% of the measured span. The report part
/// adds per file the per-SM block counts chart and the measured and simulated per-SM Gantt charts
/// (they need validate_user_timelines(..., keep_blocks = true)).
class UserTimelinesView final : public SectionView {
public:
    UserTimelinesView(UserTimelines timelines, std::string dir, const hw::GpuSpec& gpu, std::string policy);
    void print_text(std::ostream& out) const override;
    void add_json(nlohmann::ordered_json& top) const override;
    std::string report_part() const override;

private:
    UserTimelines timelines_;
    std::string dir_;
    std::string gpu_;
    int sm_count_;
    std::string policy_;
};

}  // namespace gpusched::validation
