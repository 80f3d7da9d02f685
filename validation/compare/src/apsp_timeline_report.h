// The APSP block-timeline section of the validation report (table and measured / simulated Gantt charts).
#pragma once

#include <string>

#include "gpusched/validation/apsp_timeline_validation.h"

namespace gpusched::validation {

/// The per-case table (measured against simulated: span, launch span, block duration, launch
/// gap, waves, blocks on another SM) and per case the two per-SM Gantt charts, measured above
/// simulated, coloured by launch (collapsed; they need validate_apsp_timelines(..., keep_blocks = true)).
std::string apsp_timeline_section(const ApspTimelineComparison& s);

}  // namespace gpusched::validation
