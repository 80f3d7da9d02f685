// Notes a work model attaches to a run: the rules a result rests on (summaries print them).
#pragma once

#include <string>
#include <vector>

#include "gpusched/hw/gpu_spec.h"
#include "gpusched/workloads/application.h"

namespace gpusched::workloads {

/// Implemented (besides BlockWork) by work models whose simulated time rests on a documented rule
/// rather than on counted work (the `kernel` generator's duration-only rule, a GPU key derived by
/// rule): each note is one sentence for the summary.
class WorkNotes {
public:
    virtual ~WorkNotes() = default;
    /// The notes for a run on `gpu` under execution model `execution` ("fixed" or "shared").
    [[nodiscard]] virtual std::vector<std::string> notes(const hw::GpuSpec& gpu, const std::string& execution) const = 0;
};

/// Every note of `app`'s launches, each once, prefixed with the first launch that gave it:
/// "launch 3 (gemm): ..." or "launch 3 (gemm) and 9 more: ...". Empty when no work model has notes.
std::vector<std::string> application_notes(const Application& app, const hw::GpuSpec& gpu, const std::string& execution);

}  // namespace gpusched::workloads
