// GPU spec overheads, optional nanoseconds, as the engine's integer picoseconds.
#pragma once

#include <cmath>
#include <optional>

#include "gpusched/support/time.h"

namespace gpusched::sim {

/// An overhead of the GPU spec in picoseconds, rounded to nearest; 0 when the spec omits it.
inline Time overhead_ps(const std::optional<double>& ns) {
    return ns ? static_cast<Time>(std::llround(*ns * 1000.0)) : 0;
}

}  // namespace gpusched::sim
