// LaunchSpanRecorder: each launch's first block start and last block end.
#include "gpusched/sim/output/launch_span_recorder.h"

namespace gpusched::sim {

void LaunchSpanRecorder::on_begin(const RunInfo& info) { spans_.assign(info.app->launches.size(), LaunchSpan{}); }

void LaunchSpanRecorder::on_kernel_completed(std::size_t launch, Time first_start, Time end) {
    spans_.at(launch) = {first_start, end};
}

}  // namespace gpusched::sim
