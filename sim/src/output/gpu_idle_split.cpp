// GpuIdleSplit: the makespan split by walking the kernels' [ready, end] intervals in ready order.
#include "gpusched/sim/output/gpu_idle_split.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace gpusched::sim {

GpuIdleSplit gpu_idle_split(const RunSummary& s, Time launch_overhead) {
    std::vector<std::pair<Time, Time>> runs;  // (ready, end) of each kernel
    for (std::size_t i = 0; i < s.kernel_count(); ++i) {
        const KernelSummary k = s.kernel(i);
        if (k.ready && k.end) runs.emplace_back(*k.ready, *k.end);
    }
    std::sort(runs.begin(), runs.end());
    GpuIdleSplit split;
    Time frontier = 0;
    for (const auto& [ready, end] : runs) {
        if (ready > frontier) {
            const Time gap = ready - frontier;
            split.launch_overhead += std::min(gap, launch_overhead);
            split.host_bound += gap - std::min(gap, launch_overhead);
            frontier = ready;
        }
        if (end > frontier) split.busy += end - frontier, frontier = end;
    }
    split.after = s.makespan > frontier ? s.makespan - frontier : 0;
    return split;
}

}  // namespace gpusched::sim
