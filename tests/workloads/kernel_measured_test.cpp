// The `kernel` generator's measured rule: on the reference GPU the launch alone reproduces its measurement; what-ifs follow physics.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "gpusched/hw/gpu_overrides.h"
#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/scheduler/registry.h"
#include "gpusched/sim/output/summary_collector.h"
#include "gpusched/sim/simulation.h"
#include "gpusched/workloads/kernel_work.h"
#include "gpusched/workloads/kernel_spec.h"

using namespace gpusched;

namespace {

const hw::GpuSpec& h100() {
    static const hw::GpuSpec spec = hw::resolve_gpu("h100");
    return spec;
}

/// The launch of `spec` alone on `gpu` (most-room, `exec`): its first block start to its last block end, in us.
double launch_us(const std::string& spec, const hw::GpuSpec& gpu, const std::string& exec = "shared") {
    const workloads::Application app = workloads::application_from_specs({spec}, "--kernel");
    const auto policy = scheduler::make_policy("most-room");
    sim::Simulation run(gpu, app, *policy, exec);
    sim::SummaryCollector summary;
    run.observe(summary);
    run.run();
    const auto& k = summary.summary().kernel(0);
    return static_cast<double>(*k.end - *k.start) / 1e6;
}

/// Relative error of the simulated launch against `measured_us` on the h100 preset.
double error_on_reference(const std::string& spec, double measured_us, const std::string& exec = "shared") {
    const double simulated = launch_us(spec, h100(), exec);
    CAPTURE(spec);
    CAPTURE(simulated);
    return std::fabs(simulated - measured_us) / measured_us;
}

}  // namespace

TEST_CASE("measured launches reproduce their duration on the reference GPU within 2%") {
    // h100: 132 SMs, 4 schedulers of 1 slot per cycle at 1980 MHz (s = 505.05 ps per issue), 3000 GB/s DRAM (sustained).
    // 256 threads = 8 warps; 8 blocks/SM by warps (64 / 8), so a wave is 1056 blocks.
    struct Case {
        const char* what;
        std::string spec;
        double measured_us;
    };
    const std::string shape = "kernel:threads=256,measured_gpu=h100,";
    const Case cases[] = {
        // One wave, one block per SM (200000 bytes of shared memory): L = the whole 100 us.
        {"one wave, duration only", shape + "blocks=132,smem=200000,measured=100us", 100},
        // 95 waves of 1056 blocks (100000 / 1056 = 94.7): L = (2 ms - overheads) / 95.
        {"many waves, duration only", shape + "blocks=100000,measured=2ms", 2000},
        // 2.47 waves, totals with a modest issue term: W = 4.224e8 / (2612 x 8) = 20214 slots per warp, a
        // scheduler's 16 warps issue 16 x 20214 x 505 ps = 163 us per wave, below the 404 us wave: latency term.
        {"partial last wave", shape + "blocks=2612,measured=1000us,instructions=4.224e8", 1000},
        // DRAM-bound: 9e8 bytes at 3000 GB/s = 300 us exactly; the dram term takes the whole launch (L = 0).
        {"DRAM-bound", shape + "blocks=10000,measured=300us,dram_bytes=9e8,instructions=2e7", 300},
        // DRAM at 80% of the bandwidth over the launch: the latency floor takes the rest.
        {"DRAM at 80%", shape + "blocks=10000,measured=375us,dram_bytes=9e8,instructions=2e7", 375},
        // Issue-bound: 2 full waves, W = 10000: 2 x 16 x 10000 x 505.05 ps = 161.6 us = the measurement.
        {"issue-bound", shape + "blocks=2112,measured=161.6us,instructions=1.6896e8", 161.6},
        // Issue at 50% and 90% of the wave (the `queue` model's knee): the floor comes from its mean-value analysis.
        {"issue at 50%", shape + "blocks=2112,measured=323.2us,instructions=1.6896e8", 323.2},
        {"issue at 90%", shape + "blocks=2112,measured=179.6us,instructions=1.6896e8", 179.6},
    };
    for (const auto& c : cases) {
        const std::string what = c.what;
        CAPTURE(what);
        CHECK(error_on_reference(c.spec, c.measured_us) < 0.02);
    }
    // The `fixed` model runs every block for the wave time: waves x wave time + overheads = the measurement.
    CHECK(error_on_reference(shape + "blocks=2612,measured=1000us", 1000, "fixed") < 0.02);
}

TEST_CASE("what-if: a 128-block GEMM of one block per SM takes one wave at 128 SMs, two at 96") {
    // 128 blocks x 200 KB shared memory: 1 block per SM. Measured 120 us on the full h100 (1 wave).
    const std::string gemm = "kernel:blocks=128,threads=256,smem=200000,measured=120us,measured_gpu=h100";
    const double at128 = launch_us(gemm, hw::with_sm_count(h100(), 128));
    const double at96 = launch_us(gemm, hw::with_sm_count(h100(), 96));
    // 128 SMs: still one wave, 120 us. 96 SMs: ceil(128 / 96) = 2 waves, 2 x 120 us + one refill (182 ns).
    CHECK(at128 == doctest::Approx(120).epsilon(0.01));
    CHECK(at96 == doctest::Approx(240.18).epsilon(0.01));
    // The same with Nsight Compute totals (latency-bound: W = 1.0e8 / 1024 warps = 97656 slots, 16.4 us of a
    // scheduler's 2 warps... far below the wave). Its 2e7 DRAM bytes take 6.67 us at 3000 GB/s: by the
    // no-overlap rule that part of the floor is the launch's transfer, which two waves share (3.33 us
    // each) instead of repeating, so 2 x 120 - 6.67 = 233.3 us.
    const std::string with_totals = gemm + ",instructions=1e8,dram_bytes=2e7";
    CHECK(launch_us(with_totals, hw::with_sm_count(h100(), 96)) == doctest::Approx(2 * at128 - 6.67).epsilon(0.01));
}

TEST_CASE("what-if: a DRAM-bound launch does not slow in proportion to lost SMs") {
    // 2 GB moved in 670 us on the h100 at 3000 GB/s: 2e9 / 3e12 = 667 us, the DRAM term binds (L = 0).
    // Issue: W = 2e7 / (20000 x 8) = 125 slots per warp, negligible. Per warp 12500 bytes, 100 bytes per slot.
    const std::string copy = "kernel:blocks=20000,threads=256,measured=670us,measured_gpu=h100,dram_bytes=2e9,"
                             "instructions=2e7";
    const double full = launch_us(copy, h100());
    const double half = launch_us(copy, hw::with_sm_count(h100(), 66));
    // At 66 SMs one SM's warps still ask for C f x 100 bytes per slot = 4 x 1.98e9 x 100 = 792 GB/s, and 66 SMs far
    // more than 3000 GB/s (and than the preset's per-SM cap: 66 x 72 = 4752 GB/s): still DRAM-bound, the same
    // 667 us, nowhere near the 2x of a kernel that scales with SMs.
    CHECK(full == doctest::Approx(670).epsilon(0.02));
    CHECK(half / full < 1.1);
    // With a per-SM cap of 253.44 GB/s (memory.sm_dram_bandwidth_gbps, the rule's stand-in): 66 x 253.44 = 16.7 TB/s
    // still exceeds 3000 GB/s, so 66 SMs keep the time; 8 SMs reach only 8 x 253.44 = 2027.5 GB/s, so
    // 2e9 bytes take 2e9 / 2.0275e12 = 986 us (1.65x), still less than the waves' 132 / 8 = 16.5x.
    hw::GpuSpec capped = h100();
    capped.sm_dram_bandwidth_gbps = 253.44;
    CHECK(launch_us(copy, capped) == doctest::Approx(full).epsilon(0.01));
    CHECK(launch_us(copy, hw::with_sm_count(capped, 66)) / full < 1.1);
    CHECK(launch_us(copy, hw::with_sm_count(capped, 8)) == doctest::Approx(986.4).epsilon(0.03));
    // A latency-bound launch of the same shape (duration only) does slow with the waves: 19 -> 38 waves.
    const std::string latency = "kernel:blocks=20000,threads=256,measured=600us,measured_gpu=h100";
    CHECK(launch_us(latency, hw::with_sm_count(h100(), 66)) / launch_us(latency, h100()) == doctest::Approx(2).epsilon(0.03));
}

TEST_CASE("what-if: a persistent launch (grid = the reference GPU's resident capacity) spreads its work, not a wave") {
    // 132 blocks x 200 KB shared memory: 1 block per SM, B = o S = 132 on the h100: a persistent kernel.
    // Duration only: L = the whole 100 us per block. At 128 SMs the 128 resident blocks each take 132/128 of a
    // block's work (103.1 us) and blocks 128..131 none, instead of a second wave (200 us).
    const std::string persistent = "kernel:blocks=132,threads=256,smem=200000,measured=100us,measured_gpu=h100";
    const double full = launch_us(persistent, h100());
    CHECK(full == doctest::Approx(100).epsilon(0.01));
    CHECK(launch_us(persistent, hw::with_sm_count(h100(), 128)) == doctest::Approx(100 * 132.0 / 128).epsilon(0.01));
    // 33 SMs: 132 / 33 = 4 blocks' work each: 400 us, as four waves would take (the rule changes the tail only).
    CHECK(launch_us(persistent, hw::with_sm_count(h100(), 33)) == doctest::Approx(400).epsilon(0.01));
    // The rule is named in the summary's notes on the what-if GPU, not on the reference GPU.
    const workloads::Application app = workloads::application_from_specs({persistent}, "--kernel");
    const auto& work = dynamic_cast<const workloads::KernelWork&>(*app.launches.at(0).work);
    const auto has_note = [&](const hw::GpuSpec& gpu) {
        for (const auto& note : work.notes(gpu, "shared"))
            if (note.find("persistent-kernel rule") != std::string::npos) return true;
        return false;
    };
    CHECK_FALSE(has_note(h100()));
    CHECK(has_note(hw::with_sm_count(h100(), 128)));
    // 131 blocks is not the capacity: not persistent, two waves at 128 SMs (2 x 100 us + one refill).
    const std::string short_grid = "kernel:blocks=131,threads=256,smem=200000,measured=100us,measured_gpu=h100";
    CHECK(launch_us(short_grid, hw::with_sm_count(h100(), 128)) == doctest::Approx(200.2).epsilon(0.01));
}

TEST_CASE("what-if: the no-overlap rule rescales the DRAM part of a measured floor and keeps the rest") {
    // 1000 blocks of 8 warps on the h100: 8 blocks/SM, one wave (not the 1056 of a persistent grid).
    // 150e6 DRAM bytes take 50 us at the sustained 3000 GB/s (the busiest SM's 8 blocks x 8 warps x
    // 18750 bytes = 1.2e6 bytes: 16.7 us at its 72 GB/s cap), below the 100 us wave: a latency floor L
    // (duration and bytes only: W = 1 slot), of which L_mem = 50 us is the transfer.
    const std::string spec = "kernel:blocks=1000,threads=256,measured=100us,measured_gpu=h100,dram_bytes=150000000";
    const workloads::Application app = workloads::application_from_specs({spec}, "--kernel");
    const auto& launch = app.launches.front();
    const double floor_ps =
        static_cast<double>(workloads::warp_work_at_clock(*launch.work, 0, *h100().clock_mhz)->latency_bound);
    REQUIRE(floor_ps > 50e6);

    // On the h100 itself the bound floor is L again (the rule's calibration), up to rounding.
    const auto same = workloads::work_on_gpu(launch, h100());
    CHECK(static_cast<double>(same->warp_work(0)->latency_bound) == doctest::Approx(floor_ps).epsilon(1e-6));

    // On 16 SMs: 128 resident blocks, ceil(1000 / 128) = 8 waves. The launch's DRAM time there is the
    // busiest SM's: ceil(1000 / 16) = 63 blocks x 8 warps x 18750 bytes = 9.45e6 bytes at 72 GB/s =
    // 131.25 us (the GPU's 3000 GB/s would take 50 us), 16.41 us per wave. So
    // L' = (L - 50 us) + 50 us x 16.41 / 50 = L - 50 us + 16.41 us (same clock).
    const hw::GpuSpec k16 = hw::with_sm_count(h100(), 16);
    const auto bound = workloads::work_on_gpu(launch, k16);
    const double expected = floor_ps - 50e6 + 9.45e6 / 72e-3 / 8;
    CHECK(static_cast<double>(bound->warp_work(0)->latency_bound) == doctest::Approx(expected).epsilon(1e-6));

    // Twice the DRAM bandwidth (and per-SM cap) on 16 SMs halves only the DRAM part.
    hw::GpuSpec fast = k16;
    fast.dram_bandwidth_gbps = 6000;
    fast.sm_dram_bandwidth_gbps = 144;
    const auto faster = workloads::work_on_gpu(launch, fast);
    CHECK(static_cast<double>(faster->warp_work(0)->latency_bound) ==
          doctest::Approx(floor_ps - 50e6 + 9.45e6 / 144e-3 / 8).epsilon(1e-6));
}

TEST_CASE("what-if: a launch's bf16 FLOPs run at the simulated GPU's tensor rate, the rest of its floor at its clock") {
    // 132 blocks, one per SM, measured 100 us on the h100. F = 132 x 60 us x 4096 bf16 FLOPs per SM per cycle x 1980 MHz
    // = 6.4228e13: on the busiest SM one block's FLOPs take 60 us at the h100's rate, so L_flop = 60 us of the ~100 us floor.
    const double flops = 132 * 60e-6 * 4096 * 1980e6;
    const std::string gemm = "kernel:blocks=132,threads=256,measured=100us,measured_gpu=h100,family=gemm,work_from=shapes,"
                             "flops=" + std::to_string(flops) + ",dtype=bf16";
    const double reference = launch_us(gemm, h100());
    CHECK(reference == doctest::Approx(100).epsilon(0.01));
    // Twice the bf16 rate: the compute part halves, 100 - 30 = 70 us; the other 40 us stay.
    hw::GpuSpec twice = h100();
    twice.tensor_flops_per_sm_cycle["bf16"] = 8192;
    CHECK(launch_us(gemm, twice) == doctest::Approx(70).epsilon(0.02));
    // Another dtype's rate does not matter; fewer SMs keep the per-SM rate: at 66 SMs two blocks share each SM (8 fit
    // per SM), so the compute part doubles (60 -> 120 us) and the other 40 us stay: 160 us, on a GPU that states no
    // power-limited tensor clock (the launch keeps the clock it ran at, a rule the notes name).
    hw::GpuSpec fp8 = h100();
    fp8.tensor_flops_per_sm_cycle["fp8"] = 20000;
    CHECK(launch_us(gemm, fp8) == doctest::Approx(reference).epsilon(0.001));
    hw::GpuSpec unlimited = hw::with_sm_count(h100(), 66);
    unlimited.tensor_clock_mhz.reset();
    unlimited.tensor_power_sms.reset();
    CHECK(launch_us(gemm, unlimited) == doctest::Approx(160).epsilon(0.03));
    const workloads::Application app = workloads::application_from_specs({gemm}, "--kernel");
    const auto work = std::dynamic_pointer_cast<const workloads::KernelWork>(app.launches.front().work);
    REQUIRE(work);
    const auto notes = work->notes(unlimited, "shared");
    CHECK(std::any_of(notes.begin(), notes.end(), [](const std::string& n) { return n.find("states no power-limited tensor clock") != std::string::npos; }));
}

TEST_CASE("what-if: tensor work on fewer SMs runs at the power-limited clock the h100 allows them") {
    // As above: u = F / (4096 x 132 SMs x 100 us x 1830 MHz) = 0.6 x 1980 / 1830 = 0.649 on 132 SMs, above the h100's
    // 68.5 SMs of full activity: the launch ran at f_ref = 1830 x sqrt(68.5 / (132 x 0.649)) = 1636 MHz with activity
    // a = 0.649 x 1830 / 1636 = 0.726. On 66 SMs, 66 x 0.726 = 47.9 busy SMs run at the full 1830 MHz, so its 160 us
    // of SM cycles (counted at 1980 MHz) take 160 x (1636 / 1980) x (1980 / 1830) = 143.1 us.
    const double flops = 132 * 60e-6 * 4096 * 1980e6;
    const std::string gemm = "kernel:blocks=132,threads=256,measured=100us,measured_gpu=h100,family=gemm,work_from=shapes,"
                             "flops=" + std::to_string(flops) + ",dtype=bf16";
    CHECK(launch_us(gemm, h100()) == doctest::Approx(100).epsilon(0.01));
    CHECK(launch_us(gemm, hw::with_sm_count(h100(), 66)) == doctest::Approx(143.1).epsilon(0.01));
    // A GPU that allows all 132 SMs at full activity (tensor_power_sms 132): the launch's whole SM part at 1830 MHz
    // where it ran at 1636: 100 x 1636 / 1830 = 89.4 us.
    hw::GpuSpec cool = h100();
    cool.tensor_power_sms = 132;
    CHECK(launch_us(gemm, cool) == doctest::Approx(89.4).epsilon(0.01));
    // FP32 FLOPs run on the FMA units, whose clock the rule leaves alone.
    const std::string fp32 = "kernel:blocks=132,threads=256,measured=100us,measured_gpu=h100,family=gemm,work_from=shapes,"
                             "flops=" + std::to_string(132 * 60e-6 * 256 * 1980e6) + ",dtype=fp32";
    CHECK(launch_us(fp32, cool) == doctest::Approx(launch_us(fp32, h100())).epsilon(1e-9));
    // 1000 times the FLOPs: more than the peak allows in 100 us (u = 649), so they give no clock (the GPU with and
    // without the power keys alike).
    const std::string bogus = "kernel:blocks=132,threads=256,measured=100us,measured_gpu=h100,family=gemm,work_from=shapes,"
                              "flops=" + std::to_string(flops * 1000) + ",dtype=bf16";
    hw::GpuSpec k66_unlimited = hw::with_sm_count(h100(), 66);
    k66_unlimited.tensor_clock_mhz.reset();
    k66_unlimited.tensor_power_sms.reset();
    CHECK(launch_us(bogus, hw::with_sm_count(h100(), 66)) == doctest::Approx(launch_us(bogus, k66_unlimited)).epsilon(1e-9));
    // --explain's derivation names the two clocks.
    const workloads::Application app = workloads::application_from_specs({gemm}, "--kernel");
    const auto work = std::dynamic_pointer_cast<const workloads::KernelWork>(app.launches.front().work);
    REQUIRE(work);
    const hw::GpuSpec k66 = hw::with_sm_count(h100(), 66);
    const auto steps = work->derivation(workloads::gpu_context(app.launches.front(), k66)).steps;
    CHECK(std::any_of(steps.begin(), steps.end(), [](const std::string& t) {
        return t.find("ran at 1636 MHz") != std::string::npos && t.find("run at 1830 MHz") != std::string::npos;
    }));
}
