// The `kernel` generator: hand-described per-warp work, the measured rule's per-warp work, notes, and errors.
#include <doctest/doctest.h>

#include "support/spec_checks.h"

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/support/input_error.h"
#include "gpusched/workloads/cycle_latency.h"
#include "gpusched/workloads/kernel_work.h"
#include "gpusched/workloads/kernel_spec.h"
#include "gpusched/workloads/workload_file.h"

using namespace gpusched;
using namespace gpusched::workloads;
using test::check_error;
using test::check_error_contains;
using test::spec;

TEST_CASE("kernel: hand-described work is each active warp's WarpWork") {
    const KernelLaunch k = spec(
        "kernel:blocks=264,threads=128,warp_instr=5000,warp_latency_cycles=2000,warp_dram_bytes=4096,"
        "warp_l2_bytes=1024,warp_l1_wavefronts=64,active_warps=3");
    const auto w = k.work->warp_work(263);
    REQUIRE(w);
    CHECK(w->issue_slots == 5000);
    CHECK(w->latency_bound == 0);  // in cycles, converted at the GPU's clock:
    CHECK(warp_work_at_clock(*k.work, 0, 2000.0)->latency_bound == 1'000'000);  // 2000 cycles at 2 GHz = 1 us
    CHECK(w->dram_bytes == 4096);
    CHECK(w->l2_bytes == 1024);
    CHECK(w->l1_wavefronts == 64);
    CHECK(k.work->active_warps(0, 4) == 3);
    CHECK(k.work->duration(0) == 5'000'000);  // fixed: max(no latency in time, 5000 slots x 1 ns)
    CHECK(k.work->describe() ==
          "kernel: 5000 issue slots, latency 2000 cycles, 4096 DRAM bytes, 1024 L2-hit bytes, 64 L1 wavefronts per warp, "
          "3 active warps");
    // A latency in time: one token slot per warp, and `fixed` runs the latency.
    const KernelLaunch l = spec("kernel:blocks=8,threads=64,warp_latency=10us");
    CHECK(l.work->warp_work(0)->issue_slots == 1);
    CHECK(l.work->warp_work(0)->latency_bound == 10'000'000);
    CHECK(l.work->duration(0) == 10'000'000);
    CHECK(spec("kernel:blocks=8,threads=64,warp_instr=100,warp_latency=1us,ns_per_instr=20").work->duration(0) ==
          2'000'000);  // max(1 us, 100 x 20 ns)
}

TEST_CASE("kernel: a measured launch becomes per-warp work on its reference GPU") {
    // 132 blocks of 256 threads with 200000 bytes of shared memory: 1 block per SM on the h100, one wave,
    // no overhead (one block per SM, one wave). Duration only: W = 1 token slot, L = all of the 100 us,
    // in cycles at 1980 MHz: 100e-6 x 1.98e9 = 198000.
    const KernelLaunch k = spec("kernel:blocks=132,threads=256,smem=200000,measured=100us,measured_gpu=h100");
    const auto& work = dynamic_cast<const KernelWork&>(*k.work);
    CHECK(work.warp_work(0)->issue_slots == 1);
    CHECK(work.latency_bound_cycles(0) == doctest::Approx(198000));
    CHECK(work.duration(0) == 100'000'000);  // fixed: the wave time
    CHECK(work.describe() == "measured 100us on h100 (calibrated on that measurement): 1 wave of 1 blocks/SM, latency "
                             "term; 1 issue slots, latency 198000 cycles per warp");
    const hw::GpuSpec h100 = hw::resolve_gpu("h100");
    REQUIRE(work.notes(h100, "shared").size() == 1);
    CHECK(work.notes(h100, "shared")[0].starts_with("duration-only rule (a duration measured on h100"));

    // Totals: W = instructions / (blocks x warps) = 1.056e7 / (1056 x 8) = 1250 slots; bytes likewise:
    // DRAM 1.0e9 / 8448 warps, L2 hits (3e9 - 1e9) / 8448.
    const KernelLaunch t = spec(
        "kernel:blocks=1056,threads=256,measured=500us,measured_gpu=h100,instructions=1.056e7,dram_bytes=1e9,l2_bytes=3e9");
    const auto tw = t.work->warp_work(0);
    CHECK(tw->issue_slots == doctest::Approx(1250));
    CHECK(tw->dram_bytes == doctest::Approx(1e9 / 8448));
    CHECK(tw->l2_bytes == doctest::Approx(2e9 / 8448));
    // With DRAM bytes on a GPU without a measured per-SM DRAM cap (the h100 without its measured 72 GB/s): a note
    // with the rule's stand-in, 1 wavefront x 128 B x 1980 MHz = 253.44 GB/s.
    const auto& tk = dynamic_cast<const KernelWork&>(*t.work);
    hw::GpuSpec uncapped = h100;
    uncapped.sm_dram_bandwidth_gbps.reset();
    REQUIRE(tk.notes(uncapped, "shared").size() == 1);
    CHECK(tk.notes(uncapped, "shared")[0] ==
          "h100 has no memory.sm_dram_bandwidth_gbps, so one SM may use all of the DRAM bandwidth (optimistic for a "
          "DRAM-bound launch on few SMs); the rule l1_wavefronts_per_cycle x 128 bytes x clock_mhz gives 253 GB/s "
          "(to apply it, set the GPU key memory.sm_dram_bandwidth_gbps=253)");
    CHECK(tk.notes(uncapped, "fixed").empty());
    CHECK(tk.notes(h100, "shared").empty());  // the preset's measured cap: no note
    hw::GpuSpec capped = uncapped;
    capped.sm_dram_bandwidth_gbps = 200;
    CHECK(tk.notes(capped, "shared").empty());
}

TEST_CASE("kernel: in a workload file, and the application's notes once per rule") {
    const Application app = parse_workload(
        "launches:\n  - {kernel: kernel, name: gemm, blocks: 128, threads: 256, smem: 200000, measured: 120us,"
        " measured_gpu: h100, repeat: 3}\n  - {kernel: kernel, blocks: 8, threads: 64, warp_instr: 100}\n",
        "w.yaml");
    REQUIRE(app.launches.size() == 4);
    const auto notes = application_notes(app, hw::resolve_gpu("h100"), "shared");
    REQUIRE(notes.size() == 1);
    CHECK(notes[0].starts_with("3 launches (0-2): duration-only rule"));
}

TEST_CASE("kernel: errors name the key") {
    check_error("kernel:blocks=1,threads=32",
                "--kernel: kernel 'kernel': give each warp's work (warp_instr, warp_latency or warp_latency_cycles), or "
                "a measured launch (measured, measured_gpu)");
    check_error("kernel:threads=32,warp_instr=1", "--kernel: kernel 'kernel': required key 'blocks' (or 'grid') is missing");
    check_error("kernel:blocks=1,threads=32,measured=10us",
                "--kernel: kernel 'kernel': required key 'measured_gpu' is missing (the preset of the GPU 'measured' comes from)");
    check_error_contains("kernel:blocks=1,threads=32,measured=10us,measured_gpu=h1000",
                         "--kernel: key 'measured_gpu': expected the preset name of the GPU the duration was measured on (");
    check_error("kernel:blocks=1,threads=32,measured=10us,measured_gpu=h100,warp_instr=5",
                "--kernel: key 'warp_instr': describes the work by hand; a measured launch takes the totals instructions, "
                "dram_bytes and l2_bytes instead");
    check_error("kernel:blocks=1,threads=32,warp_instr=5,dram_bytes=100",
                "--kernel: key 'dram_bytes': belongs to a measured launch: give 'measured' and 'measured_gpu' with it");
    check_error("kernel:blocks=1,threads=32,measured=0us,measured_gpu=h100",
                "--kernel: key 'measured': expected a duration above 0, got '0us'");
    check_error("kernel:blocks=1,threads=32,measured=10us,measured_gpu=h100,instructions=0",
                "--kernel: key 'instructions': expected a number in [1, 1e+18], got '0'");
    check_error("kernel:blocks=1,threads=32,warp_latency=1us,warp_latency_cycles=5",
                "--kernel: key 'warp_latency_cycles': give either 'warp_latency' or 'warp_latency_cycles', not both");
    check_error_contains("kernel:blocks=1,threads=32,smem=300000,measured=10us,measured_gpu=h100",
                         "--kernel: key 'measured_gpu': the launch does not fit the measured GPU: ");
    // active_warps is checked against the block's warps on the GPU when a simulation starts.
    CHECK_THROWS_WITH_AS(spec("kernel:blocks=1,threads=32,warp_instr=1,active_warps=2").work->check_block_warps(1),
                         "--kernel: key 'active_warps': 2 exceeds the 1 warps of each block on this GPU", InputError);
}

TEST_CASE("kernel: a rule's note names the launches it covers as ranges, or every launch with NoteDetail::every_launch") {
    // Launches 0-2 and 4 are measured (the duration-only rule), launch 3 is described by hand (no note).
    const Application app = parse_workload(
        "launches:\n  - {kernel: kernel, name: gemm, blocks: 128, threads: 256, measured: 120us, measured_gpu: h100, repeat: 3}\n"
        "  - {kernel: kernel, blocks: 8, threads: 64, warp_instr: 100}\n"
        "  - {kernel: kernel, name: gemm, blocks: 128, threads: 256, measured: 120us, measured_gpu: h100}\n",
        "w.yaml");
    const hw::GpuSpec h100 = hw::resolve_gpu("h100");
    const auto per_rule = application_notes(app, h100, "shared");
    REQUIRE(per_rule.size() == 1);
    CHECK(per_rule[0].starts_with("4 launches (0-2, 4): duration-only rule"));
    const auto every = application_notes(app, h100, "shared", NoteDetail::every_launch);
    REQUIRE(every.size() == 4);
    CHECK(every[0].starts_with("launch 0 (gemm): duration-only rule"));
    CHECK(every[3].starts_with("launch 4 (gemm): duration-only rule"));
}

TEST_CASE("kernel: a note's per-launch detail is left out where the rule covers several launches") {
    // Both launches' instruction totals take longer per wave than their measured durations (the same rule, each with
    // its own numbers): one line for the rule, no numbers; each launch's numbers with NoteDetail::every_launch.
    const Application app = parse_workload(
        "launches:\n  - {kernel: kernel, name: a, blocks: 132, threads: 256, measured: 1us, measured_gpu: h100, instructions: 1e9}\n"
        "  - {kernel: kernel, name: b, blocks: 132, threads: 256, measured: 2us, measured_gpu: h100, instructions: 2e9}\n",
        "w.yaml");
    const hw::GpuSpec h100 = hw::resolve_gpu("h100");
    const auto per_rule = application_notes(app, h100, "shared");
    REQUIRE(per_rule.size() == 1);
    CHECK(per_rule[0] == "2 launches (0-1): the totals take longer per wave on h100 than the measured duration: the "
                         "simulation on that GPU is longer than the measurement");
    const auto every = application_notes(app, h100, "shared", NoteDetail::every_launch);
    REQUIRE(every.size() == 2);
    CHECK(every[0].starts_with("launch 0 (a): the totals take longer per wave on h100"));
    CHECK(every[0].find("; this launch: ") != std::string::npos);
    CHECK(every[0] != every[1]);  // each launch's own numbers
}
