// The SpMV, n x SSSP and streamcluster sections of the validation report (tables, SVG charts, timelines).
#pragma once

#include <string>

#include "gpusched/validation/spmv_validation.h"
#include "gpusched/validation/sssp_validation.h"
#include "gpusched/validation/streamcluster_validation.h"

namespace gpusched::validation {

/// Summary per format, a chart of measured and calibrated simulated block spans over the 40k
/// matrices, the table of every configuration, and per measured timeline the two per-SM Gantt
/// charts (collapsed; they need validate_spmv(..., keep_blocks = true)).
std::string spmv_section(const SpmvComparison& s);

/// The frontier hard check, run time and speedup over streams (measured, calibrated simulation,
/// direct launches), the carveout ratios, and per timeline a per-stream Gantt chart of launches,
/// measured above simulated.
std::string sssp_section(const SsspComparison& s);

/// Kernel, copy and total times over the rake size R: a chart of measured and simulated totals
/// (pinned and pageable) and the kernel alone, the best R, the table of every R, and per measured
/// timeline the two per-SM Gantt charts (collapsed; they need validate_streamcluster(..., keep_blocks = true)).
std::string streamcluster_section(const StreamclusterComparison& s);

}  // namespace gpusched::validation
