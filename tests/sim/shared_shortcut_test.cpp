// The `shared` model's catch-up shortcut is exact: every block's SM, dispatch, start and end, and every end the model reports, as without it.
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

/// The `shared` model, with every end it reports to the engine written down in call order.
class RecordedShared final : public sim::ExecutionModel, sim::CompletionSink {
public:
    RecordedShared(const hw::GpuSpec& gpu, const workloads::Application& app, bool shortcut, std::ostream& calls)
        : model_(gpu, app, shortcut), calls_(calls) {}
    [[nodiscard]] std::string name() const override { return model_.name(); }
    void block_started(const sim::StartedBlock& block, Time now, sim::CompletionSink& sink) override {
        sink_ = &sink;
        model_.block_started(block, now, *this);
    }
    void block_finished(int sm, int slot, Time now, sim::CompletionSink& sink) override {
        sink_ = &sink;
        model_.block_finished(sm, slot, now, *this);
    }
    void set_end(int sm, int slot, Time end) override {
        calls_ << sm << ' ' << slot << ' ' << end << '\n';
        sink_->set_end(sm, slot, end);
    }

private:
    sim::SharedExecution model_;
    std::ostream& calls_;
    sim::CompletionSink* sink_ = nullptr;
};

/// The timeline CSV of `app` on `gpu` under `policy` with the `shared` model, the shortcut on or off
/// (measured launches calibrated first, as a Simulation does), then every end the model reported.
std::string timeline(const workloads::Application& app, const hw::GpuSpec& gpu, const std::string& policy_name, bool shortcut) {
    const auto policy = scheduler::make_policy(policy_name);
    const auto calibrated = sim::calibrate_measured_launches(app, *policy);
    const workloads::Application& run_app = calibrated ? *calibrated : app;
    std::ostringstream calls;
    sim::Simulation run(gpu, run_app, *policy, std::make_unique<RecordedShared>(gpu, run_app, shortcut, calls));
    std::ostringstream csv;
    sim::TimelineCsvWriter writer(csv, "test");
    run.observe(writer);
    run.run();
    return csv.str() + "ends reported:\n" + calls.str();
}

}  // namespace

TEST_CASE("shared model: the catch-up shortcut gives every block the same SM, dispatch, start and end") {
    // Without the shortcut, a call on an SM already brought up to its instant runs update_sm again; it
    // must neither move a block nor report an end (the model's every set_end call is compared too).
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
