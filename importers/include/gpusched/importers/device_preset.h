// Which GPU preset a trace's device is: matched by model name, compute capability and SM count.
#pragma once

#include <string>

#include "gpusched/importers/imported_trace.h"

namespace gpusched::importers {

/// The preset describing `device`: first the one listing the device's name among its
/// `device_names` (the exact names cudaGetDeviceProperties reports, "NVIDIA H100 PCIe"), else the
/// one whose `name` (h100, a100, ...) is a word of the device's name (words: runs of letters and
/// digits, case ignored; "NVIDIA H100 80GB HBM3" has the word "h100"); either way its compute
/// capability and SM count must equal the device's. Empty when none matches.
std::string preset_for_device(const TraceDevice& device);

}  // namespace gpusched::importers
