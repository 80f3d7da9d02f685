// Engine calibration of measured launches: the launch alone on its reference GPU takes its measured duration.
#include <doctest/doctest.h>

#include <cmath>

#include "gpusched/hw/gpu_overrides.h"
#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/scheduler/registry.h"
#include "gpusched/sim/execution/measured_calibration.h"
#include "gpusched/sim/output/summary_collector.h"
#include "gpusched/sim/simulation.h"
#include "gpusched/workloads/kernel_work.h"
#include "gpusched/workloads/kernel_spec.h"

using namespace gpusched;

namespace {

/// The launches of `specs` on `gpu` (most-room, `shared`): each launch's first block start to last block end, us.
std::vector<double> launch_us(const std::vector<std::string>& specs, const hw::GpuSpec& gpu) {
    const workloads::Application app = workloads::application_from_specs(specs, "--kernel");
    const auto policy = scheduler::make_policy("most-room");
    sim::Simulation run(gpu, app, *policy, "shared");
    sim::SummaryCollector summary;
    run.observe(summary);
    run.run();
    std::vector<double> out;
    for (std::size_t i = 0; i < summary.summary().kernel_count(); ++i) {
        const auto& k = summary.summary().kernel(i);
        out.push_back(static_cast<double>(*k.end - *k.start) / 1e6);
    }
    return out;
}

// A PyTorch layout kernel of the `cnn` trace (validation/data/h100/torch/): 3200 blocks of 256 threads,
// 8 per SM, 3.03 waves, measured 6.592 us with Nsight Compute totals. The closed-form rule alone
// left it 9% short (5.99 us): its overhead formula charges a completion backlog the engine's
// staggered block ends do not build up.
const std::string kLayout = "kernel:grid=25x4x32,block=256x1x1,regs=32,smem=4224,measured=6.592us,measured_gpu=h100,"
                            "instructions=2518528,dram_bytes=12854528,l2_bytes=28612960";
// A DRAM-term kernel (its bytes take more than the wave at 3000 GB/s): the transfer is its floor.
const std::string kStream = "kernel:grid=3136x1x1,block=128x1x1,regs=32,smem=0,measured=9.633us,measured_gpu=h100,"
                            "instructions=426496,dram_bytes=25714944,l2_bytes=34446496";

}  // namespace

TEST_CASE("engine calibration: measured launches reproduce their duration on the reference GPU within 0.1%") {
    const hw::GpuSpec h100 = hw::resolve_gpu("h100");
    const auto us = launch_us({kLayout, kStream, "kernel:blocks=100000,threads=256,measured=2ms,measured_gpu=h100"}, h100);
    REQUIRE(us.size() == 3);
    CHECK(us[0] == doctest::Approx(6.592).epsilon(1e-3));
    CHECK(us[1] == doctest::Approx(9.633).epsilon(1e-3));
    CHECK(us[2] == doctest::Approx(2000).epsilon(1e-3));
}

TEST_CASE("engine calibration: a long one-wave launch keeps its floor of over 10^6 cycles per issue slot") {
    // The gemm trace's first cuBLAS kernel (validation/data/h100/torch/gemm_k132.json.gz): 132 blocks, one
    // per SM, measured 1482.309 us. Its floor is 1482.309 us x 1980 MHz = 2.93 million cycles for one
    // issue slot per warp; a starved block's creep (10^-6 of a scheduler's rate, one slot per 505 us)
    // must not speed up a block whose own latency-bound rate is slower: it ran in 505 us before.
    const auto us = launch_us({"kernel:grid=2x66x1,block=384x1x1,regs=168,smem=188636,measured=1482.309us,measured_gpu=h100"},
                              hw::resolve_gpu("h100"));
    REQUIRE(us.size() == 1);
    CHECK(us[0] == doctest::Approx(1482.309).epsilon(1e-3));
}

TEST_CASE("engine calibration: nothing to calibrate leaves the application alone") {
    const auto policy = scheduler::make_policy("most-room");
    // Hand-described work and a measured launch with no floor (its issue term takes the wave) are not touched.
    const auto app = workloads::application_from_specs(
        {"kernel:blocks=264,threads=128,warp_instr=5000,warp_latency_cycles=2000"}, "--kernel");
    CHECK(sim::calibrate_measured_launches(app, *policy) == nullptr);
    // A calibrated launch is not calibrated again (the nested runs would recurse otherwise).
    const auto measured = workloads::application_from_specs({kLayout}, "--kernel");
    const auto once = sim::calibrate_measured_launches(measured, *policy);
    REQUIRE(once != nullptr);
    CHECK(sim::calibrate_measured_launches(*once, *policy) == nullptr);
}

TEST_CASE("engine calibration: a what-if runs the calibrated floor, never re-fitted on the other GPU") {
    // On 16 SMs the launch is simulated from the floor calibrated on the h100; the answer differs from
    // the 132-SM duration (more waves) and is deterministic.
    const hw::GpuSpec k16 = hw::with_sm_count(hw::resolve_gpu("h100"), 16);
    const auto a = launch_us({kLayout}, k16);
    const auto b = launch_us({kLayout}, k16);
    CHECK(a == b);
    CHECK(a[0] > 2 * 6.592);
}

TEST_CASE("engine calibration: each distinct launch is calibrated once per process, keyed on its exact work") {
    const auto policy = scheduler::make_policy("most-room");
    // Two applications built separately (distinct work objects, the same launch): the second gets the
    // calibrated work the first one's search made, the very same object.
    const auto first = sim::calibrate_measured_launches(workloads::application_from_specs({kLayout}, "--kernel"), *policy);
    const auto second = sim::calibrate_measured_launches(workloads::application_from_specs({kLayout}, "--kernel"), *policy);
    REQUIRE(first != nullptr);
    REQUIRE(second != nullptr);
    CHECK(first->launches[0].work.get() == second->launches[0].work.get());
    // One picosecond more measured time is another work: its own search, its own object.
    const std::string longer = "kernel:grid=25x4x32,block=256x1x1,regs=32,smem=4224,measured=6.592001us,measured_gpu=h100,"
                               "instructions=2518528,dram_bytes=12854528,l2_bytes=28612960";
    const auto other = sim::calibrate_measured_launches(workloads::application_from_specs({longer}, "--kernel"), *policy);
    REQUIRE(other != nullptr);
    CHECK(other->launches[0].work.get() != first->launches[0].work.get());
    // Another shape (more registers: fewer blocks per SM) with the same spec text otherwise is another launch.
    const std::string regs = "kernel:grid=25x4x32,block=256x1x1,regs=64,smem=4224,measured=6.592us,measured_gpu=h100,"
                             "instructions=2518528,dram_bytes=12854528,l2_bytes=28612960";
    const auto shaped = sim::calibrate_measured_launches(workloads::application_from_specs({regs}, "--kernel"), *policy);
    REQUIRE(shaped != nullptr);
    CHECK(shaped->launches[0].work.get() != first->launches[0].work.get());
    // A calibration remembered from another process state gives the same simulated answer as a fresh one.
    const hw::GpuSpec h100 = hw::resolve_gpu("h100");
    CHECK(launch_us({kLayout}, h100) == launch_us({kLayout}, h100));
}
