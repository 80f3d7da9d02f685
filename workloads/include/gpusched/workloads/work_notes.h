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

/// How application_notes lists a note that several launches give.
enum class NoteDetail {
    per_rule,      ///< once, with the launches it covers: "61 launches (0-16, 18-29, ...): ..."
    every_launch,  ///< once per launch, in launch order: "launch 3 (gemm): ..."
};

/// Every note of `app`'s launches. per_rule: each note once, prefixed with the launch that gave it
/// ("launch 3 (gemm): ...") or with how many did and which ("12 launches (3-9, 11, 20-23): ...", at
/// most six ranges, then "..."), in the order of first appearance. every_launch: each launch's
/// notes in launch order. Empty when no work model has notes.
std::vector<std::string> application_notes(const Application& app, const hw::GpuSpec& gpu, const std::string& execution,
                                           NoteDetail detail = NoteDetail::per_rule);

}  // namespace gpusched::workloads
