// LaunchBindings: the shared model's terms of a launch and the one that binds it; grouped summary rows.
#include <doctest/doctest.h>

#include <sstream>

#include "gpusched/hw/occupancy.h"
#include "gpusched/sim/output/launch_binding.h"
#include "gpusched/sim/output/summary_collector.h"
#include "support/sim_fixtures.h"

using namespace gpusched;
using sim::Binding;

namespace {

/// 4 SMs at 1000 MHz (10^-3 cycles per ps), C = 4 x 1 issue slots per cycle, DRAM 1000 GB/s (1 byte per ps),
/// no L1 or L2 limits.
hw::GpuSpec simple_gpu(double dram_gbps = 1000) {
    hw::GpuSpec g = test::small_gpu(4);
    g.clock_mhz = 1000;
    g.warp_schedulers_per_sm = 4;
    g.issue_width = 1;
    g.l1_wavefronts_per_cycle.reset();
    g.l2_bandwidth_gbps.reset();
    g.sm_dram_bandwidth_gbps.reset();
    g.dram_bandwidth_gbps = dram_gbps;
    return g;
}

/// A launch of `blocks` blocks of 64 threads (2 warps) whose every warp issues `slots`, has latency floor
/// `latency` and moves `dram` bytes.
workloads::KernelLaunch warp_launch(std::uint64_t blocks, double slots, Time latency, double dram, int regs = 0) {
    auto k = test::launch(blocks, 64, 1'000'000);
    k.registers_per_thread = regs;
    k.work = std::make_shared<test::LambdaWork>([](std::uint64_t) { return Time{1'000'000}; }, nullptr,
                                                [=](std::uint64_t) { return workloads::WarpWork{slots, latency, dram, 0, 0}; });
    return k;
}

sim::LaunchTerms terms_of(const hw::GpuSpec& gpu, const workloads::KernelLaunch& launch) {
    const auto app = test::app_of({launch});
    sim::RunInfo info;
    info.gpu = &gpu;
    info.app = &app;
    info.execution = "shared";
    info.occupancy.push_back(hw::compute_occupancy(gpu, launch.occupancy_request()));
    return sim::LaunchBindings(info).of(0);
}

}  // namespace

TEST_CASE("launch binding: the largest of the shared model's terms binds") {
    // 4 blocks on 4 SMs: 1 block (n = 2 warps) per SM. issue = n W / (C f) = 2 x 1000 / (4 x 10^-3) = 500 ns
    // against a 100 ns latency floor: issue binds.
    sim::LaunchTerms t = terms_of(simple_gpu(), warp_launch(4, 1000, 100'000, 0));
    REQUIRE(t.terms);
    CHECK(t.warps_per_sm == 2);
    CHECK(t.busy_sms == 4);
    CHECK(t.terms->issue == doctest::Approx(500'000).epsilon(1e-9));
    CHECK(t.terms->latency == 100'000);
    CHECK(t.binds == Binding::issue);
    // W = 100: issue 50 ns < latency 100 ns, and one wave: latency binds.
    CHECK(terms_of(simple_gpu(), warp_launch(4, 100, 100'000, 0)).binds == Binding::latency);
    // 10^6 bytes per warp: dram = S n D / B = 4 x 2 x 10^6 / 1 = 8 us, larger than issue and latency.
    t = terms_of(simple_gpu(), warp_launch(4, 100, 100'000, 1e6));
    CHECK(t.terms->dram == 8'000'000);
    CHECK(t.binds == Binding::dram);
    // Twice the DRAM bandwidth halves that term (still binding) ...
    CHECK(terms_of(simple_gpu(2000), warp_launch(4, 100, 100'000, 1e6)).terms->dram == 4'000'000);
    // ... and leaves a latency-bound launch latency-bound: "2x DRAM bandwidth changes nothing".
    CHECK(terms_of(simple_gpu(2000), warp_launch(4, 100, 100'000, 10)).binds == Binding::latency);
}

TEST_CASE("launch binding: a latency floor with blocks waiting and free warp slots is the occupancy") {
    // 255 registers: 2 warps x 32 x 256 = 16384 registers per block, 4 blocks (8 of 64 warps) per SM. W = 10:
    // issue = 8 x 10 / (4 x 10^-3) = 20 ns < latency 100 ns. 100 blocks > 4 x 4 fit at once: more resident
    // blocks would help.
    CHECK(terms_of(simple_gpu(), warp_launch(100, 10, 100'000, 0, 255)).binds == Binding::occupancy);
    // 16 blocks fit at once: one wave, nothing waits, latency binds.
    CHECK(terms_of(simple_gpu(), warp_launch(16, 10, 100'000, 0, 255)).binds == Binding::latency);
}

TEST_CASE("launch binding: a launch shorter than its launch overhead is launch-bound") {
    hw::GpuSpec gpu = test::small_gpu(4);
    gpu.kernel_launch_ns = 2000;  // 2 us
    const auto app = test::app_of({test::launch(4, 64, 1'000'000), test::launch(4, 64, 5'000'000)});
    sim::SummaryCollector summary;
    test::run(gpu, app, "most-room", &summary);
    // 1 us runs < 2 us of launch overhead: launch; 5 us runs: the fixed model's durations.
    CHECK(summary.summary().kernel(0).binds == Binding::launch);
    CHECK(summary.summary().kernel(1).binds == Binding::duration);
}

TEST_CASE("summary text: identical launches share a row with count and min / median / max") {
    // Three launches of 4 blocks of 1, 3 and 2 us on one stream (alike), one of 8 blocks: 2 rows.
    // Times end - start: 1, 3, 2 us: min 1, median 2, max 3.
    const auto app = test::app_of(
        {test::launch(4, 64, 1'000'000), test::launch(4, 64, 3'000'000), test::launch(4, 64, 2'000'000), test::launch(8, 64, 1'000'000)});
    sim::SummaryCollector summary;
    test::run(test::small_gpu(4), app, "most-room", &summary);
    std::ostringstream grouped, every;
    sim::write_summary_text(grouped, summary.summary());
    sim::write_summary_text(every, summary.summary(), {true});
    CHECK(grouped.str().find("first  launches  kernel  stream  blocks  threads  blocks/SM  waves  min_us  median_us  max_us  binds\n"
                             "    0         3  k            0       4       64         32      1   1.000      2.000   3.000  duration\n"
                             "    3         1  k            0       8       64         32      1   1.000      1.000   1.000  duration\n"
                             "  4 launches in 2 rows: identical launches grouped, their times end - start\n") != std::string::npos);
    CHECK(every.str().find("     3  k            0       8       64         32      1") != std::string::npos);
    CHECK(every.str().find("first  launches") == std::string::npos);
}
