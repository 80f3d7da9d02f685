// Binding a launch's work to the GPU it runs on.
#include "gpusched/workloads/gpu_bound_work.h"

#include <algorithm>
#include <map>

#include "gpusched/hw/occupancy.h"
#include "gpusched/support/input_error.h"

namespace gpusched::workloads {

GpuContext gpu_context(const KernelLaunch& launch, const hw::GpuSpec& gpu) {
    const hw::OccupancyResult occ = hw::compute_occupancy(gpu, launch.occupancy_request());
    return GpuContext{gpu, std::int64_t{gpu.sm_count} * std::max(1, occ.blocks_per_sm)};
}

std::shared_ptr<const BlockWork> work_on_gpu(const KernelLaunch& launch, const hw::GpuSpec& gpu) {
    const auto* bindable = dynamic_cast<const GpuBoundWork*>(launch.work.get());
    if (bindable == nullptr) return launch.work;
    auto bound = bindable->bind(gpu_context(launch, gpu));
    return bound ? bound : launch.work;
}

std::shared_ptr<const BlockWork> work_as_run(const KernelLaunch& launch, const hw::GpuSpec& gpu,
                                             const std::string& execution) {
    return execution == "shared" ? work_on_gpu(launch, gpu) : launch.work;
}

std::vector<std::shared_ptr<const BlockWork>> works_as_run(const LaunchList& launches, const hw::GpuSpec& gpu,
                                                           const std::string& execution) {
    std::vector<std::shared_ptr<const BlockWork>> out;
    out.reserve(launches.size());
    std::map<const BlockWork*, std::shared_ptr<const BlockWork>> bound;
    for (const KernelLaunch& launch : launches) {
        auto [it, fresh] = bound.try_emplace(launch.work.get());
        if (fresh) {
            try {
                it->second = work_as_run(launch, gpu, execution);
            } catch (const InputError& e) {  // e.g. the launch does not fit this GPU: say which launch
                throw InputError("launch " + std::to_string(out.size()) + " (" + launch.name + "): " + e.what());
            }
        }
        out.push_back(it->second);
    }
    return out;
}

}  // namespace gpusched::workloads
