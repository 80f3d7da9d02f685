// The page of gpusched validate's HTML report: one self-contained HTML file around the sections' report parts.
#pragma once

#include <string>
#include <vector>

namespace gpusched::validation {

struct ReportContext {
    std::string data_dir;
    std::string gpu;
    std::string policy;
};

/// The report: a head naming the data, GPU and policy, then the sections' report parts
/// (SectionView::report_part, e.g. the placement table and per case the measured and simulated
/// per-SM Gantt charts) in the order given. No scripts, no external resources; byte-identical
/// for equal inputs.
std::string render_validation_report(const ReportContext& context, const std::vector<std::string>& parts);

}  // namespace gpusched::validation
