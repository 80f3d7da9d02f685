// Which GPU preset a trace's device is: matched by model name, compute capability and SM count.
#pragma once

#include <string>

#include "gpusched/importers/imported_trace.h"

namespace gpusched::importers {

/// The preset describing `device`: the one whose `name` (h100, a100, ...) is a word of the
/// device's name (words: runs of letters and digits, case ignored; "NVIDIA H100 80GB HBM3"
/// has the word "h100") and whose compute capability and SM count equal the device's. An
/// H100 PCIe (114 SMs) therefore matches no preset. Empty when none matches.
std::string preset_for_device(const TraceDevice& device);

}  // namespace gpusched::importers
