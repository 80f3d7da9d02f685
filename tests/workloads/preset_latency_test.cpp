// Every preset x every generator: latency floors derived from the GPU, each GPU number data or a named rule.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/hw/gpu_spec_provenance.h"
#include "gpusched/hw/presets.h"
#include "gpusched/support/input_error.h"
#include "gpusched/workloads/application.h"
#include "gpusched/workloads/cycle_latency.h"
#include "gpusched/workloads/gpu_bound_work.h"
#include "gpusched/workloads/kernel_spec.h"
#include "gpusched/workloads/latency_chains.h"
#include "gpusched/workloads/ruled_numbers.h"

using namespace gpusched;
using namespace gpusched::workloads;

namespace {

/// One small spec per generator whose work depends on the GPU (synthetic does not).
const std::vector<std::string> kSpecs = {
    "apsp-minplus:n=100,block=16",
    "apsp-fw:n=64,block=16,steps=1",
    "binomial-series:blocks=26,threads=128",
    "spmv:format=csr,gen=qcd,rows=2000",
    "spmv:format=ell,gen=harbor,rows=2000",
    "spmv:format=coo,gen=epidemiology,rows=2000",
    "sssp:nodes=500,degree=4",
    "streamcluster:points=4096,dims=16,rake=4,regs=23",
};

double latency_cycles(const KernelLaunch& launch, const hw::GpuSpec& gpu, std::uint64_t block = 0) {
    const auto bound = work_on_gpu(launch, gpu);
    return dynamic_cast<const CycleLatencyWork&>(*bound).latency_bound_cycles(block);
}

}  // namespace

TEST_CASE("every preset runs every generator with each GPU number it reads either data or a rule it names") {
    for (const auto& name : hw::preset_names()) {
        const hw::GpuSpec gpu = hw::resolve_gpu(name);
        for (const auto& spec : kSpecs) {
            CAPTURE(name);
            CAPTURE(spec);
            const Application app = application_from_specs({spec}, "--kernel");
            const KernelLaunch& launch = app.launches.front();
            // A latency floor above 0 on every GPU: derived, never a silent zero (sssp: its first
            // launch is a relax of the source's edges).
            CHECK(latency_cycles(launch, gpu) > 0);
            const std::vector<GpuNumberUse> uses = run_gpu_numbers(app, gpu, true);
            const std::vector<std::string> notes = ruled_number_notes(app, gpu, true);
            CHECK(!uses.empty());
            for (const auto& use : uses) {
                CAPTURE(use.key);
                // The rule recorded is the spec's own entry for the key, and a ruled number is in a note.
                CHECK(use.rule == hw::gpu_rule(gpu, use.key).value_or(""));
                if (use.rule.empty()) continue;
                const bool noted = std::any_of(notes.begin(), notes.end(), [&](const std::string& note) {
                    return note.find(use.key) != std::string::npos && note.find(use.rule) != std::string::npos;
                });
                CHECK(noted);
            }
        }
    }
}

TEST_CASE("the h100's own measurements are data; the h200 takes them by rule R1 and its DRAM bandwidth is data") {
    const hw::GpuSpec h100 = hw::resolve_gpu("h100");
    const hw::GpuSpec h200 = hw::resolve_gpu("h200");
    for (const char* key : {"execution.alu_latency_cycles", "execution.shared_memory_latency_cycles",
                            "memory.l2_hit_latency_cycles", "memory.dram_latency_cycles", "overheads.kernel_launch_ns"}) {
        CAPTURE(key);
        CHECK(!hw::gpu_rule(h100, key));
        CHECK(hw::gpu_rule(h200, key).value_or("").rfind("R1 ", 0) == 0);
        CHECK(hw::gpu_number(h200, key) == hw::gpu_number(h100, key));
    }
    // The H100's FMA and SFU latencies were measured on the H200 (R1 the other way round): data there.
    CHECK(hw::gpu_rule(h100, "execution.fma_latency_cycles").value_or("").rfind("R1 ", 0) == 0);
    CHECK(!hw::gpu_rule(h200, "execution.fma_latency_cycles"));
    CHECK(hw::gpu_number(h200, "execution.sfu_latency_cycles") == hw::gpu_number(h100, "execution.sfu_latency_cycles"));
    CHECK(!hw::gpu_rule(h200, "memory.dram_bandwidth_gbps"));
    CHECK(*h200.dram_bandwidth_gbps == 4200);  // sustained, validation/data/h200/torch/bandwidth.csv
    CHECK(h200.issue_model == h100.issue_model);
    // Stated defaults: most-room everywhere; a rule (R15) where no dispatch walk was measured.
    CHECK(h100.default_policy == "most-room");
    CHECK(!hw::gpu_rule(h100, "defaults.policy"));
    CHECK(hw::gpu_rule(h200, "defaults.policy").value_or("").rfind("R15 ", 0) == 0);
}

TEST_CASE("binomial-series: the textbook term's in-order chain on the H100 is 32 cycles") {
    // H100: conversion 5 (R4), ALU 5, SFU 17 and FMA 4 (measured on the H200's GH100 SM). From I2F
    // at t: IADD t+1; MUFU.RCP waits for I2F (t+5, ready t+22); FADD t+6 (ready t+10); ISETP t+7;
    // FMUL x t+10 (ready t+14); FMUL 1/k waits for the RCP: t+22 (ready t+26); FMUL term t+26;
    // FADD sum t+30; BRA t+31; the next I2F at t+32.
    const KernelLaunch k = parse_kernel_spec("binomial-series:blocks=132,threads=32", "--kernel");
    CHECK(latency_cycles(k, hw::resolve_gpu("h100")) == doctest::Approx(1000 * 32.0));
    // The same SM on the h200: the same floor.
    CHECK(latency_cycles(k, hw::resolve_gpu("h200")) == doctest::Approx(1000 * 32.0));
    // Given, the key wins over the chain.
    const KernelLaunch given = parse_kernel_spec("binomial-series:blocks=132,threads=32,term_latency_cycles=59", "--kernel");
    CHECK(latency_cycles(given, hw::resolve_gpu("h100")) == doctest::Approx(1000 * 59));
}

TEST_CASE("streamcluster, spmv, sssp: the loop chains on the H100, worked by hand") {
    const hw::GpuSpec h100 = hw::resolve_gpu("h100");
    // streamcluster, N 65536 x D 256 floats = 64 MiB > 50 MiB L2: coordinates from DRAM (685). The
    // 4x unrolled body issues 8 loads at t..t+7; FADD 0 waits for coordinate 0 (t+685); the FADD /
    // FFMA pairs follow at t+685, 689, 690, 694, 695, 699, 700, 704 (each FFMA waits 4 for its
    // FADD); the address add t+705 (ready t+710), the branch t+710, the next loads t+711:
    // 711 / 4 = 177.75 cycles per trip. Block 0's first thread has R = 512 points of 256 trips.
    const KernelLaunch sc = parse_kernel_spec("streamcluster:points=65536,dims=256,rake=512,regs=40", "--kernel");
    CHECK(latency_cycles(sc, h100) == doctest::Approx(512.0 * 256 * 177.75));
    // spmv CSR (validation/runner/spmv_kernels.cu's PTX), the matrix (78000 x 8 B + 2000 x 12 B) in
    // L2 (280). Entry: the parameters' constant-bank read t=0 (ready 280), index 280 (285), bound
    // test 285 (290), the two row offsets 290 and 291 (ready 570, 571), start + lane 570 (575), the
    // loop test 575 (580), branch 580: 585. A remainder step: col t, val t+1, &x[col] waits for col
    // (t+280, ready t+285), x[col] t+285 (ready t+565), FFMA t+565, index add t+566 (ready t+571),
    // branch t+571, the next col t+572. Exit: five SHFL (29) + FADD (4) steps, 5 x 33 = 165.
    // A qcd row has 39 entries: lanes 0-6 run 2 steps, the others 1, all in the remainder loop (2
    // mod 4 = 2; no 4x group): 585 + 2 x 572 + 165.
    const KernelLaunch csr = parse_kernel_spec("spmv:format=csr,gen=qcd,rows=2000", "--kernel");
    CHECK(latency_cycles(csr, h100) == doctest::Approx(585 + 2 * 572 + 165.0));
    // sssp relax, the graph in L2 (280). Entry: parameters (280), index (285), bound (290), F[tid]
    // 290 (ready 570), test 570 (575), branch 575: 580. A frontier node: dist and the two row
    // offsets at t..t+2 (ready 282), loop test 282 (287), branch 287: 292. Edge trip: col t, w t+1,
    // U[j] waits for col (t+280, ready t+560), compare t+560, add t+561, atomic t+566, index add
    // t+567 (ready t+572), branch t+572, next trip t+573. Block 0 holds the source, the only
    // frontier node of the first relax: 580 + 292 + its out-degree x 573.
    const Application app = application_from_specs({"sssp:nodes=500,degree=4"}, "--kernel");
    const auto bound = work_on_gpu(app.launches.front(), h100);
    const auto& relax = dynamic_cast<const CycleLatencyWork&>(*bound);
    const double cycles = relax.latency_bound_cycles(0);
    CHECK(cycles > 580 + 292);
    CHECK(std::fmod(cycles - 580 - 292, 573.0) == doctest::Approx(0));
    // Block 1 holds no frontier node: the entry alone.
    CHECK(relax.latency_bound_cycles(1) == doctest::Approx(580));
}

TEST_CASE("spmv ELL and COO chains on the H100, worked by hand") {
    const hw::GpuSpec h100 = hw::resolve_gpu("h100");
    const std::string mtx = std::string(GPUSCHED_SOURCE_DIR) + "/tests/workloads/data/spmv/lengths_1_2_3_10.mtx";
    // ELL, width 10 (the longest row), one warp: 10 div 4 = 2 unrolled groups, then 2 remainder
    // steps, all with entries (the 10-entry row reaches slot 9). Entry: parameters (280), index
    // (285), bound (290): 290. A group: cols t..t+3 (ready t+280..283), the padding tests
    // t+280..283, &x[col] t+284 / x t+289 (ready t+569), then pairs every 6 cycles (x3 at t+307,
    // ready t+587), the values after their tests t+308..311 (ready t+588..591), the FFMAs
    // t+588, 592, 596, 600, index add t+601 (ready t+606), branch t+606, next group t+607. A
    // remainder step: col t, test t+280, &x[col] t+281 (ready t+286), x t+286 (ready t+566), val
    // t+287 (ready t+567), FFMA t+567, index add t+568 (ready t+573), branch t+573, next t+574.
    const KernelLaunch ell = parse_kernel_spec("spmv:format=ell,threads=32,matrix=" + mtx, "--kernel");
    CHECK(latency_cycles(ell, h100) == doctest::Approx(290 + 2 * 607 + 2 * 574.0));
    // COO: entry: parameters (280), index (285), bound (290), row / col / val at 290..292 (ready
    // 570..572), &x[col] 571 (576), x 576 (ready 856), FMUL 856: 860. A scan step: SHFL sum t,
    // SHFL row t+1 (ready t+30), rows' compare t+30, FADD t+31 (ready t+35), select t+35, next
    // SHFL t+40: 40. Exit: SHFL row (29), segment test 29, RED 34: 34. 860 + 5 x 40 + 34.
    const KernelLaunch coo = parse_kernel_spec("spmv:format=coo,threads=32,matrix=" + mtx, "--kernel");
    CHECK(latency_cycles(coo, h100) == doctest::Approx(860 + 5 * 40 + 34.0));
}

TEST_CASE("sssp minimum and update chains on the H100, worked by hand") {
    const hw::GpuSpec h100 = hw::resolve_gpu("h100");
    GpuNumbers numbers(h100, "sssp", "edge_latency_cycles");
    // 256 threads: tree strides 128, 64, 32 (3 barrier steps), 8 warps: a barrier 12 + 8 x 2 = 28.
    const SsspChains c = sssp_chains(numbers, true, 3, 8);
    // Entry: parameters (280), index (285), bound (290), branch 290: 295. A load level: the load
    // (280), its test 280 (285), branch 285: 290.
    CHECK(c.min_entry.cycles_per_step == doctest::Approx(295));
    CHECK(c.min_level.cycles_per_step == doctest::Approx(290));
    // Tree: STS 0, BAR 1 (ready 29); per step LDS +29, IMNMX +5, STS, BAR +1 +28: 63 per step
    // (29 -> 92 -> 155 -> 218); five SHFL + IMNMX: 5 x 34 = 170 (388); RED 388.
    CHECK(c.min_tree.cycles_per_step == doctest::Approx(388));
    // Update: parameters (280), index (285), bound (290), F store 290, U[tid] 291 (ready 571), test
    // 571 (576), branch 576: 581. An unsettled node: dist t, threshold t+1 (ready 281), compare 281
    // (286), stores 286: 286.
    CHECK(c.update_entry.cycles_per_step == doctest::Approx(581));
    CHECK(c.update_test.cycles_per_step == doctest::Approx(286));
}

TEST_CASE("a GPU file without a key a derivation needs is an error naming the key and the work key") {
    std::string yaml = hw::to_yaml(hw::resolve_gpu("k20"));
    const auto at = yaml.find("  fma_latency_cycles: 9\n");
    REQUIRE(at != std::string::npos);
    yaml.erase(at, std::string("  fma_latency_cycles: 9\n").size());
    const hw::GpuSpec gpu = hw::parse_gpu_spec(yaml, "k20-less-fma.yaml");
    const KernelLaunch k = parse_kernel_spec("binomial-series:blocks=13,threads=64", "--kernel");
    CHECK_THROWS_WITH_AS(
        (void)work_on_gpu(k, gpu),
        "GPU 'k20' has no execution.fma_latency_cycles, which the binomial-series work model needs for its latency "
        "floor; add it to the GPU file (docs/gpu-spec.md) or give term_latency_cycles= in the kernel spec",
        InputError);
}

TEST_CASE("GPU spec rules must name a key the spec gives") {
    const std::string base = hw::to_yaml(hw::resolve_gpu("c2050"));
    CHECK_THROWS_WITH_AS(hw::parse_gpu_spec(base + "  memory.l2_bytes: \"R0 made up\"\n", "x.yaml"),
                         doctest::Contains("'memory.l2_bytes' is not a GPU number key"), InputError);
    std::string yaml = hw::to_yaml(hw::resolve_gpu("c1060"));
    CHECK_THROWS_WITH_AS(hw::parse_gpu_spec(yaml + "  memory.l2_hit_latency_cycles: \"R8\"\n", "x.yaml"),
                         doctest::Contains("the spec gives no value for memory.l2_hit_latency_cycles"), InputError);
}
