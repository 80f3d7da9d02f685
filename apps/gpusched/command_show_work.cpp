// `gpusched show work SPEC --gpu G`: a kernel's per-warp work on a GPU and where each number comes from.
#include <iostream>
#include <memory>

#include "commands.h"
#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/hw/occupancy.h"
#include "gpusched/support/key_error.h"
#include "gpusched/workloads/cycle_latency.h"
#include "gpusched/workloads/gpu_bound_work.h"
#include "gpusched/workloads/kernel_spec.h"
#include "gpusched/workloads/spec_numbers.h"
#include "table.h"

namespace gpusched::cli {

namespace {

struct ShowWorkOptions {
    std::string spec;
    std::string gpu = "h100";
};

/// One block's per-warp work on the GPU, as the `shared` model sees it.
void print_block(const workloads::BlockWork& work, std::uint64_t block, int warps_per_block, double clock_mhz) {
    const auto w = workloads::warp_work_at_clock(work, block, clock_mhz);
    std::cout << "  block " << block << ": " << work.active_warps(block, warps_per_block) << " of " << warps_per_block
              << " warps active";
    if (!w) {
        std::cout << "; no per-warp work (the `fixed` model only)\n";
        return;
    }
    const double cycles = static_cast<double>(w->latency_bound) * clock_mhz / 1e6;
    std::cout << "; per active warp: " << workloads::format_spec_number(w->issue_slots) << " issue slots, latency floor "
              << fixed(cycles, 1) << " cycles (" << fixed(static_cast<double>(w->latency_bound) / 1e6, 3) << " us), "
              << workloads::format_spec_number(w->dram_bytes) << " DRAM bytes, "
              << workloads::format_spec_number(w->l2_bytes) << " L2-hit bytes, "
              << workloads::format_spec_number(w->l1_wavefronts) << " L1 wavefronts\n";
}

void show_work(const ShowWorkOptions& o) {
    const hw::GpuSpec gpu = hw::resolve_gpu(o.gpu);
    const workloads::KernelLaunch launch = workloads::parse_kernel_spec(o.spec, "SPEC");
    const double clock = gpu.clock_mhz.value_or(0);
    const hw::OccupancyResult occ = hw::compute_occupancy(gpu, launch.occupancy_request());
    std::cout << "work of " << o.spec << " on " << gpu.name << " (" << gpu.full_name << "), " << fixed(clock, 0)
              << " MHz\n  " << launch.work->describe() << "\n  " << launch.blocks() << " blocks of "
              << launch.threads_per_block() << " threads, " << occ.blocks_per_sm << " blocks per SM\n";
    const auto bound = workloads::work_on_gpu(launch, gpu);
    const int warps = (launch.threads_per_block() + gpu.warp_size - 1) / gpu.warp_size;
    print_block(*bound, 0, warps, clock);
    if (launch.blocks() > 1) print_block(*bound, launch.blocks() - 1, warps, clock);
    const auto* bindable = dynamic_cast<const workloads::GpuBoundWork*>(launch.work.get());
    if (bindable == nullptr) {
        std::cout << "where it comes from: the spec's keys only (this work does not depend on the GPU)\n";
        return;
    }
    const workloads::WorkDerivation derivation = bindable->derivation(workloads::gpu_context(launch, gpu));
    std::cout << "where it comes from:\n";
    for (const auto& step : derivation.steps) std::cout << "  " << step << "\n";
    if (!derivation.gpu_numbers.empty()) {
        std::cout << "GPU numbers used:\n";
        for (const auto& use : derivation.gpu_numbers) std::cout << "  " << workloads::describe_gpu_number(use) << "\n";
    }
}

}  // namespace

void add_show_work_command(CLI::App& show) {
    auto o = std::make_shared<ShowWorkOptions>();
    auto* cmd = show.add_subcommand("work", "Print a kernel's derived per-warp work on a GPU and where each number comes from");
    cmd->footer("Examples (docs/latency-sources.md):\n"
                "  gpusched show work binomial-series:blocks=132,threads=128 --gpu h100\n"
                "  gpusched show work apsp-minplus:n=1000,block=16 --gpu c2075");
    cmd->add_option("SPEC", o->spec, "One-line kernel spec, e.g. binomial-series:blocks=132,threads=128")->required();
    cmd->add_option("--gpu", o->gpu, "Preset name (gpusched list gpus) or GPU YAML file")->capture_default_str();
    cmd->callback([o] { naming_keys({{"gpu", "--gpu"}}, [&] { show_work(*o); }); });
}

}  // namespace gpusched::cli
