// binomial-series generator: per-warp arithmetic work, active warps, the fixed stand-in, and errors.
#include <doctest/doctest.h>

#include "support/spec_checks.h"

#include "gpusched/support/input_error.h"
#include "gpusched/workloads/binomial_series.h"
#include "gpusched/workloads/cycle_latency.h"
#include "gpusched/workloads/kernel_spec.h"
#include "gpusched/workloads/synthetic_work.h"
#include "gpusched/workloads/workload_file.h"

using namespace gpusched;
using namespace gpusched::workloads;
using test::check_error;
using test::spec;

TEST_CASE("binomial series: K x instr_per_term issue slots, one store per thread, all warps active") {
    const KernelLaunch k = spec("binomial-series:blocks=208,threads=128");
    CHECK(k.blocks() == 208);
    CHECK(k.threads_per_block() == 128);
    CHECK(parse_kernel_spec_launches("binomial-series:blocks=208,threads=128", "--kernel").count == 1);
    const auto w = k.work->warp_work(207);
    REQUIRE(w);
    CHECK(w->issue_slots == doctest::Approx(1000 * 10));
    CHECK(w->latency_bound == 0);
    CHECK(w->dram_bytes == doctest::Approx(128));  // 32 threads x 4 bytes
    CHECK(k.work->active_warps(0, 4) == 4);
    CHECK(k.work->duration(0) == 10'000'000);  // 10000 slots x 1 ns
    CHECK(k.work->describe() == "binomial series, 1000 terms: 10000 issue slots per warp");

    // 100 threads: ceil(100/32) = 4 warps, the last one partial but active.
    const KernelLaunch p = spec("binomial-series:grid=4x2,threads=100,terms=64,instr_per_term=12.5,elem_bytes=8");
    CHECK(p.blocks() == 8);
    CHECK(p.work->active_warps(7, 4) == 4);
    CHECK(p.work->warp_work(0)->issue_slots == doctest::Approx(800));
    CHECK(p.work->warp_work(0)->dram_bytes == doctest::Approx(8.0 * 100 / 4));

    const KernelLaunch l = spec("binomial-series:blocks=1,threads=32,terms=100,term_latency_cycles=4,ns_per_instr=0.25");
    const auto& bw = dynamic_cast<const BinomialSeriesWork&>(*l.work);
    CHECK(bw.latency_bound_cycles(0) == doctest::Approx(400));
    CHECK(l.work->duration(0) == 250'000);
    CHECK(warp_work_at_clock(*l.work, 0, 2000.0)->latency_bound == 200'000);  // 400 cycles at 2 GHz
    CHECK(l.work->describe() == "binomial series, 100 terms: 1000 issue slots per warp, latency 400 cycles");
}

TEST_CASE("binomial series in a workload file and its errors") {
    const Application app = parse_workload(
        "launches:\n  - {kernel: binomial-series, blocks: 16, threads: 1024, terms: 5000, repeat: 3}\n", "w.yaml");
    REQUIRE(app.launches.size() == 3);
    CHECK(app.launches[2].work->warp_work(0)->issue_slots == doctest::Approx(50000));

    check_error("binomial-series:threads=32", "--kernel: kernel 'binomial-series': required key 'blocks' (or 'grid') is missing");
    check_error("binomial-series:blocks=1", "--kernel: kernel 'binomial-series': required key 'threads' (or 'block') is missing");
    check_error("binomial-series:blocks=1,threads=32,terms=0",
                "--kernel: key 'terms': expected an integer in [1, 1000000000000], got '0'");
    check_error("binomial-series:blocks=1,threads=32,instr_per_term=1e7",
                "--kernel: key 'instr_per_term': expected a number in [0, 1000000], got '1e7'");
    check_error("binomial-series:blocks=1,threads=32,terms=1000000000000,instr_per_term=1000000,ns_per_instr=1000000",
                "--kernel: key 'ns_per_instr': 1e+18 issue slots x 1000000 ns per instruction is beyond "
                "the longest duration (2^63 ps); use fewer terms or a smaller ns_per_instr");
}

TEST_CASE("warp_work_at_clock leaves other work models alone; cycles_to_time rounds up") {
    const KernelLaunch s = spec("synthetic:blocks=1,threads=32,duration=1us");
    CHECK(!warp_work_at_clock(*s.work, 0, 1000.0));
    CHECK(cycles_to_time(1, 1755) == 570);  // 569.8 ps
    CHECK(cycles_to_time(0, 1755) == 0);
    CHECK(cycles_to_time(10, 0) == 0);
    CHECK(cycles_to_time(1000, 1000) == 1'000'000);
}
