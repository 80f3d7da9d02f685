// Pieces the validation report's sections share: numbers, table cells, inline SVG, per-SM Gantt charts of block timelines.
#pragma once

#include <string>
#include <vector>

#include "gpusched/charts/text_table.h"
#include "gpusched/validation/measured_timeline.h"

namespace gpusched::validation {

/// `v` with `digits` decimals.
using charts::fixed;

/// A table cell, its text escaped; class "bad" (red) on request.
std::string cell(const std::string& text, bool bad = false);

/// A table row of plain cells.
std::string row(const std::vector<std::string>& cells);

/// A table row of header cells.
std::string header(const std::vector<std::string>& names);

/// The SVG document without its XML declaration, to inline in HTML.
std::string inline_svg(const std::string& svg);

/// What a Gantt bar's colour (modulo 8) tells.
enum class GanttColour {
    position_on_sm,  ///< the block's order on its SM: refills stand out
    launch,          ///< the block's launch: queued launches and the gaps between them stand out
};

/// One Gantt chart of a timeline: a row per SM of `sms` (give both timelines' SMs so the two
/// charts share rows), times relative to the timeline's first start.
std::string sm_gantt(const std::string& title, const std::vector<MeasuredBlock>& blocks, const std::vector<int>& sms,
                     GanttColour colour = GanttColour::position_on_sm);

/// The SMs either timeline used, ascending.
std::vector<int> sms_of(const std::vector<MeasuredBlock>& a, const std::vector<MeasuredBlock>& b);

}  // namespace gpusched::validation
