// Style shared by the chart kinds: font sizes and colours of titles, ticks, axes and grid lines.
#pragma once

namespace gpusched::charts::style {

constexpr double kTitleSize = 15;
constexpr double kTickSize = 11;
constexpr const char* kAxisColour = "#444444";
constexpr const char* kGridColour = "#e0e0e0";

}  // namespace gpusched::charts::style
