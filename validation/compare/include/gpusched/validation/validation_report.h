// The `gpusched validate --report` page: one self-contained HTML file with tables and SVG charts.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gpusched/validation/apsp_timeline_validation.h"
#include "gpusched/validation/curve_validation.h"
#include "gpusched/validation/placement_validation.h"
#include "gpusched/validation/series_validation.h"
#include "gpusched/validation/spmv_validation.h"
#include "gpusched/validation/sssp_validation.h"
#include "gpusched/validation/streamcluster_validation.h"

namespace gpusched::validation {

struct ReportContext {
    std::string data_dir;
    std::string gpu;
    std::string policy;
};

/// The report: the placement error table, then for every case the measured and simulated
/// per-SM Gantt charts one above the other on the same time axis (each block a bar, coloured
/// by wave: colour k = the k-th block its SM ran, so refills stand out). Comparisons need
/// their per-block timelines (validate_placement(..., keep_blocks = true)). No scripts, no
/// external resources; byte-identical for equal inputs.
/// Runtime curves, when given, follow: per curve a table and a chart of the measured and the
/// calibrated simulated times with every jump of either curve marked; then the series table.
/// SpMV, n x SSSP and streamcluster, when given, come next (workload_report.h: tables, charts, timelines),
/// then the APSP block timelines (apsp_timeline_report.h).
std::string render_validation_report(const std::vector<PlacementComparison>& cases,
                                     const std::vector<CurveComparison>& curves,
                                     const std::optional<SeriesComparison>& series, const ReportContext& context,
                                     const std::optional<SpmvComparison>& spmv = std::nullopt,
                                     const std::optional<SsspComparison>& sssp = std::nullopt,
                                     const std::optional<StreamclusterComparison>& streamcluster = std::nullopt,
                                     const std::optional<ApspTimelineComparison>& apsp_timelines = std::nullopt);

}  // namespace gpusched::validation
