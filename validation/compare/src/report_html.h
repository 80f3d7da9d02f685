// Pieces the validation report's sections share: number formatting, inline SVG, per-SM Gantt charts of block timelines.
#pragma once

#include <string>
#include <vector>

#include "gpusched/validation/measured_timeline.h"

namespace gpusched::validation {

/// `v` with `digits` decimals.
std::string fixed(double v, int digits);

/// The SVG document without its XML declaration, to inline in HTML.
std::string inline_svg(const std::string& svg);

/// One Gantt chart of a timeline: a row per SM of `sms` (give both timelines' SMs so the two
/// charts share rows), times relative to the timeline's first start, colour = order of the block
/// on its SM (modulo 8), so refills stand out.
std::string sm_gantt(const std::string& title, const std::vector<MeasuredBlock>& blocks, const std::vector<int>& sms);

/// The SMs either timeline used, ascending.
std::vector<int> sms_of(const std::vector<MeasuredBlock>& a, const std::vector<MeasuredBlock>& b);

}  // namespace gpusched::validation
