// LaunchSpanRecorder: a standard observer that keeps each launch's first block start and last block end.
#pragma once

#include <vector>

#include "gpusched/sim/observer.h"

namespace gpusched::sim {

/// When one launch's blocks ran: its first block's start and its last block's end.
struct LaunchSpan {
    Time first_start = 0;
    Time end = 0;
};

/// Keeps one LaunchSpan per launch of the run (in Application::launches order; {0, 0} for a launch
/// that never completed). It needs no block one by one, so repeated launches stay memoised.
class LaunchSpanRecorder final : public SimObserver {
public:
    [[nodiscard]] bool needs_every_block() const override { return false; }
    void on_begin(const RunInfo& info) override;
    void on_kernel_completed(std::size_t launch, Time first_start, Time end) override;

    /// Per launch, in launch order.
    [[nodiscard]] const std::vector<LaunchSpan>& spans() const { return spans_; }

private:
    std::vector<LaunchSpan> spans_;
};

}  // namespace gpusched::sim
