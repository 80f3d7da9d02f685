// `gpusched occupancy`: blocks per SM, warps, occupancy and limiting factors for one kernel shape.
#include <iostream>
#include <memory>
#include <optional>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "occupancy_json.h"
#include "gpu_what_if.h"
#include "gpusched/hw/cluster_occupancy.h"
#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/hw/occupancy.h"
#include "gpusched/support/input_error.h"
#include "gpusched/support/key_error.h"
#include "table.h"

namespace gpusched::cli {

namespace {

struct OccupancyOptions {
    std::string gpu = "h100";
    GpuWhatIf what_if;  ///< --sms, --set
    int threads = 0;
    int regs = 0;
    std::int64_t smem = 0;
    std::int64_t static_smem = 0;
    int barriers = 1;
    std::string carveout = "default";
    std::string cluster;       ///< --cluster SHAPE ("" = not a cluster launch)
    bool nonportable = false;  ///< --cluster-nonportable
    bool json = false;
};

std::string limit_text(int limit) {
    return limit == hw::OccupancyResult::unlimited ? "unlimited" : std::to_string(limit);
}

std::string limiters(const hw::OccupancyResult& r) {
    std::string out;
    for (auto l : r.limited_by) out += (out.empty() ? "" : ", ") + std::string(hw::to_string(l));
    return out;
}

void print_text(const hw::GpuSpec& spec, const OccupancyOptions& o, const hw::OccupancyResult& r,
                const std::optional<hw::ClusterOccupancy>& c) {
    std::cout << "GPU            " << spec.full_name << " (" << spec.name << ", cc " << spec.compute_capability()
              << ", " << spec.sm_count << " SMs)\n"
              << "Block          " << o.threads << " threads (" << r.warps_per_block << " warps), " << o.regs
              << " registers/thread, " << o.static_smem << " B static + " << o.smem << " B dynamic shared, carveout "
              << o.carveout << "\n"
              << "Blocks per SM  " << r.blocks_per_sm << "\n"
              << "Warps per SM   " << r.warps_per_sm << " of " << spec.max_warps_per_sm << " (occupancy "
              << fixed(100.0 * r.occupancy, 1) << "%)\n"
              << "Limited by     " << limiters(r) << "\n"
              << "Limits         warps " << limit_text(r.limit_warps) << ", registers "
              << limit_text(r.limit_registers) << ", shared memory " << limit_text(r.limit_shared_memory)
              << ", blocks " << limit_text(r.limit_blocks) << ", barriers " << limit_text(r.limit_barriers)
              << " (blocks per SM)\n"
              << "Allocated      " << r.registers_per_block << " registers/block, " << r.shared_bytes_per_block
              << " B shared/block, shared memory split " << r.shared_bytes_per_sm / 1024 << " KiB/SM"
              << (r.needs_shared_optin ? " (needs the opt-in cudaFuncAttributeMaxDynamicSharedMemorySize)" : "")
              << "\n";
    if (c)
        std::cout << "Clusters       " << c->max_active_clusters << " active clusters of " << c->cluster_size
                  << " blocks (" << c->blocks_per_sm << " blocks per SM in cluster launches, " << o.cluster << ")\n";
}

void run_occupancy(const OccupancyOptions& o) {
    const hw::GpuSpec spec = resolve_gpu_what_if(o.gpu, o.what_if);
    hw::OccupancyRequest req;
    req.threads_per_block = o.threads;
    req.registers_per_thread = o.regs;
    req.dynamic_shared_bytes = o.smem;
    req.static_shared_bytes = o.static_smem;
    req.barriers_per_block = o.barriers;
    req.carveout = hw::Carveout::parse(o.carveout, "--carveout");
    const hw::OccupancyResult r = hw::compute_occupancy(spec, req);
    if (o.nonportable && o.cluster.empty()) throw InputError("--cluster-nonportable: give --cluster SHAPE too");
    std::optional<hw::ClusterOccupancy> c;
    if (!o.cluster.empty())
        c = hw::compute_cluster_occupancy(spec, r, hw::parse_cluster_shape(o.cluster, "--cluster"), o.nonportable,
                                          "--cluster");
    if (o.json)
        std::cout << occupancy_json(spec, req, r, c).dump(2) << "\n";
    else
        print_text(spec, o, r, c);
}

}  // namespace

void add_occupancy_command(CLI::App& app) {
    auto o = std::make_shared<OccupancyOptions>();
    auto* cmd = app.add_subcommand("occupancy", "Blocks per SM and the limiting factor for one kernel shape");
    cmd->footer("Examples (docs/gpu-spec.md):\n"
                "  gpusched occupancy --gpu h100 --threads 256 --regs 32\n"
                "  gpusched occupancy --gpu c2075 --threads 64 --smem 512 --json\n"
                "  gpusched occupancy --gpu h100 --threads 1024 --cluster 4");
    cmd->add_option("--gpu", o->gpu, "Preset name or GPU YAML file")->capture_default_str();
    add_gpu_what_if_options(cmd, o->what_if);
    cmd->add_option("--threads", o->threads, "Threads per block")->required();
    cmd->add_option("--regs", o->regs, "Registers per thread (0 = not counted)")->capture_default_str();
    cmd->add_option("--smem", o->smem, "Dynamic shared memory per block, bytes")->capture_default_str();
    cmd->add_option("--static-smem", o->static_smem, "Static shared memory per block, bytes")
        ->capture_default_str();
    cmd->add_option("--barriers", o->barriers, "Named barriers per block (__syncthreads uses 1)")
        ->capture_default_str();
    cmd->add_option("--carveout", o->carveout,
                    "L1/shared split: default, max-shared, max-l1, equal, or a percentage 0..100 (cc >= 7.0)")
        ->capture_default_str();
    cmd->add_option("--cluster", o->cluster,
                    "Thread-block cluster shape N, XxY or XxYxZ (cc 9.0+): also print the maximum active clusters, "
                    "as cudaOccupancyMaxActiveClusters does");
    cmd->add_flag("--cluster-nonportable", o->nonportable,
                  "Allow clusters over the portable size (cudaFuncAttributeNonPortableClusterSizeAllowed)");
    cmd->add_flag("--json", o->json, "Print one JSON object");
    cmd->callback([o] {
        naming_keys({{"gpu", "--gpu"},
                     {"threads", "--threads"},
                     {"regs", "--regs"},
                     {"smem", "--smem"},
                     {"static_smem", "--static-smem"},
                     {"barriers", "--barriers"},
                     {"carveout", "--carveout"}},
                    [&] { run_occupancy(*o); });
    });
}

}  // namespace gpusched::cli
