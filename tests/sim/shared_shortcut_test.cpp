// The `shared` model's catch-up shortcut is exact: every block's SM, dispatch, start and end as without it.
#include <doctest/doctest.h>

#include <sstream>

#include "gpusched/hw/gpu_overrides.h"
#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/scheduler/registry.h"
#include "gpusched/sim/execution/measured_calibration.h"
#include "gpusched/sim/execution/shared_execution.h"
#include "gpusched/sim/output/timeline_csv.h"
#include "gpusched/sim/simulation.h"
#include "gpusched/workloads/kernel_spec.h"

using namespace gpusched;

namespace {

/// The timeline CSV of `app` on `gpu` under `policy` with the `shared` model, the shortcut on or off
/// (measured launches calibrated first, as a Simulation does).
std::string timeline(const workloads::Application& app, const hw::GpuSpec& gpu, const std::string& policy_name, bool shortcut) {
    const auto policy = scheduler::make_policy(policy_name);
    const auto calibrated = sim::calibrate_measured_launches(app, *policy);
    const workloads::Application& run_app = calibrated ? *calibrated : app;
    sim::Simulation run(gpu, run_app, *policy, std::make_unique<sim::SharedExecution>(gpu, run_app, shortcut));
    std::ostringstream csv;
    sim::TimelineCsvWriter writer(csv, "test");
    run.observe(writer);
    run.run();
    return csv.str();
}

}  // namespace

TEST_CASE("shared model: the catch-up shortcut gives every block the same SM, dispatch, start and end") {
    const std::vector<std::vector<std::string>> workloads = {
        // Kernels imported from the `cnn` trace (validation/data/h100/torch/cnn_k132.json.gz): a layout
        // kernel with a floor, a DRAM-term one, a duration-only one on a second stream.
        {"kernel:grid=25x4x32,block=256x1x1,regs=32,smem=4224,measured=6.592us,measured_gpu=h100,"
         "instructions=2518528,dram_bytes=12854528,l2_bytes=28612960",
         "kernel:grid=3136x1x1,block=128x1x1,regs=32,smem=0,measured=9.633us,measured_gpu=h100,"
         "instructions=426496,dram_bytes=25714944,l2_bytes=34446496",
         "kernel:blocks=1000,threads=256,measured=20us,measured_gpu=h100,stream=1"},
        // An elementwise launch of the `elementwise` trace's shape: 65536 blocks moving their bytes (bandwidth rule).
        {"kernel:blocks=65536,threads=128,measured=177.952us,measured_gpu=h100,dram_bytes=402653184,work_from=bandwidth-rule"},
        // Hand-described: issue, latency, DRAM, L2 and L1 terms together; two streams that overlap.
        {"kernel:blocks=2000,threads=256,warp_instr=5000,warp_latency_cycles=2000,warp_dram_bytes=4096,warp_l2_bytes=2048,"
         "warp_l1_wavefronts=300",
         "kernel:blocks=700,threads=96,warp_instr=800,warp_latency=3us,stream=1"},
        {"apsp-minplus:n=300,block=16"},
    };
    const std::vector<hw::GpuSpec> gpus = {hw::resolve_gpu("h100"), hw::with_sm_count(hw::resolve_gpu("h100"), 64),
                                           hw::resolve_gpu("h200")};
    for (const auto& specs : workloads) {
        const workloads::Application app = workloads::application_from_specs(specs, "--kernel");
        for (const auto& gpu : gpus) {
            for (const std::string policy : {"most-room", "round-robin"}) {
                CAPTURE(specs.front());
                CAPTURE(gpu.sm_count);
                CAPTURE(gpu.name);
                CAPTURE(policy);
                const std::string with = timeline(app, gpu, policy, true);
                CHECK(with.size() > 200);
                CHECK(with == timeline(app, gpu, policy, false));
            }
        }
    }
}
