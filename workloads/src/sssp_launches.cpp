// SSSP launches: K Crauser instances in batches of C streams, relax / minimum / update per iteration.
#include "gpusched/workloads/sssp_launches.h"

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>

#include "gpusched/workloads/sssp_tables_cache.h"

namespace gpusched::workloads {

namespace {

constexpr std::int64_t kReduceValueBytes = 4;  // reduce4's shared array holds one 32-bit value per thread

struct Instance {
    std::uint32_t index = 0;
    std::shared_ptr<const SsspTables> tables;
    [[nodiscard]] std::uint32_t iterations() const { return static_cast<std::uint32_t>(tables->iterations().size()); }
};

KernelLaunch make_launch(const KernelLaunch& base, const SsspOptions& options, const Instance& instance,
                         SsspKernel kernel, std::uint32_t iteration) {
    const SsspKernelConfig& config = options.kernels;
    KernelLaunch launch = base;
    launch.name = base.name + "-" + sssp_kernel_name(kernel);
    const std::uint32_t threads = kernel == SsspKernel::relax     ? config.relax_threads
                                  : kernel == SsspKernel::minimum ? config.min_threads
                                                                  : config.update_threads;
    launch.block = Dim3{threads, 1, 1};
    const std::uint64_t blocks = sssp_grid_blocks(kernel, instance.tables->nodes(), config);
    launch.grid = Dim3{static_cast<std::uint32_t>(blocks), 1, 1};  // at most 2^24 blocks: 1-D
    launch.carveout = kernel == SsspKernel::relax     ? options.relax_carveout
                      : kernel == SsspKernel::minimum ? options.min_carveout
                                                      : options.update_carveout;
    if (kernel == SsspKernel::minimum)
        launch.static_shared_bytes =
            options.min_static_smem >= 0
                ? options.min_static_smem
                : kReduceValueBytes * threads * (config.criteria == CrauserCriteria::both ? 2 : 1);
    launch.stream = base.stream + static_cast<int>(instance.index % options.streams);
    launch.work = std::make_shared<const SsspWork>(instance.tables, kernel, iteration);
    return launch;
}

}  // namespace

std::vector<KernelLaunch> sssp_launches(const Graph& graph, const SsspOptions& options, const KernelLaunch& base,
                                        std::uint64_t max_launches) {
    if (options.sources < 1 || options.sources > graph.nodes())
        throw std::invalid_argument("sssp_launches: sources outside 1..nodes");
    if (options.streams < 1 || options.streams > kMaxSsspStreams)
        throw std::invalid_argument("sssp_launches: streams outside 1..32");
    std::vector<KernelLaunch> launches;
    std::uint64_t needed = 0;
    for (std::uint32_t first = 0; first < options.sources; first += options.streams) {
        const std::uint32_t last = std::min(options.sources, first + options.streams);
        std::vector<Instance> batch;
        std::uint32_t iterations = 0;
        for (std::uint32_t k = first; k < last; ++k) {
            std::shared_ptr<const SsspTables> tables = cached_sssp_tables(graph, k, options.kernels);
            const std::size_t instance_iterations = tables->iterations().size();
            needed += 3 * instance_iterations - 1;
            if (needed > max_launches)
                throw std::length_error("instances 0.." + std::to_string(k) + " alone need " + std::to_string(needed) +
                                        " launches (3 per iteration; instance " + std::to_string(k) + " has " +
                                        std::to_string(instance_iterations) + " iterations), more than the " +
                                        std::to_string(max_launches) + " an application may have");
            batch.push_back(Instance{k, std::move(tables)});
            iterations = std::max(iterations, batch.back().iterations());
        }
        for (std::uint32_t i = 0; i < iterations; ++i)
            for (const SsspKernel kernel : {SsspKernel::relax, SsspKernel::minimum, SsspKernel::update})
                for (const Instance& instance : batch) {
                    const std::uint32_t count = instance.iterations() - (kernel == SsspKernel::update ? 1 : 0);
                    if (i < count) launches.push_back(make_launch(base, options, instance, kernel, i));
                }
    }
    return launches;
}

}  // namespace gpusched::workloads
