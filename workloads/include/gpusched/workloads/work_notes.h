// Notes a work model attaches to a run: the rules a result rests on (summaries print them).
#pragma once

#include <string>
#include <string_view>
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

/// A note may end in what it means for its own launch (numbers): the rule, then kNoteDetail, then the
/// detail ("the totals take longer ...; this launch: 5200 ns per wave against 4350 ns measured").
/// application_notes groups launches by the rule alone and shows a detail only where one launch is listed.
inline constexpr std::string_view kNoteDetail = "; this launch: ";

/// How application_notes lists a note that several launches give.
enum class NoteDetail {
    per_rule,      ///< once, with the launches it covers: "61 launches (0-16, 18-29, ...): ..."
    every_launch,  ///< once per launch, in launch order: "launch 3 (gemm): ..."
};

/// Every note of `app`'s launches. per_rule: each rule once (a note's text before kNoteDetail), prefixed
/// with the launch that gave it ("launch 3 (gemm): ...", with its detail) or with how many did and which
/// ("12 launches (3-9, 11, 20-23): ...", at most six ranges, then "...", without details), in the order of
/// first appearance. every_launch: each launch's notes, details included, in launch order. Empty when no
/// work model has notes.
std::vector<std::string> application_notes(const Application& app, const hw::GpuSpec& gpu, const std::string& execution,
                                           NoteDetail detail = NoteDetail::per_rule);

}  // namespace gpusched::workloads
