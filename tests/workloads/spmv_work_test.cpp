// SpMV work models (CSR, ELL, COO, HYB) against hand-derived per-block numbers, and the `spmv` spec.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "support/spec_checks.h"

#include "gpusched/support/input_error.h"
#include "gpusched/workloads/cycle_latency.h"
#include "gpusched/workloads/kernel_spec.h"
#include "gpusched/workloads/spmv_work.h"
#include "gpusched/workloads/workload_file.h"

using namespace gpusched;
using namespace gpusched::workloads;
using test::check_error_contains;
using test::spec;

namespace {

// Row lengths 1, 2, 3, 10: 16 non-zeros (tests/workloads/data/spmv/lengths_1_2_3_10.mtx).
SpmvRowOffsets offsets(std::vector<std::uint64_t> o) {
    return std::make_shared<const std::vector<std::uint64_t>>(std::move(o));
}
const std::vector<std::uint64_t> k1_2_3_10 = {0, 1, 3, 6, 16};

std::string data(const std::string& file) {
    return std::string(GPUSCHED_SOURCE_DIR) + "/tests/workloads/data/spmv/" + file;
}

}  // namespace

TEST_CASE("spmv csr: one warp per row, each row's own length") {
    // Defaults: csr_instr_row 27, csr_instr_iter 7, 4-byte indices and values.
    // Every row here is at most 32 long: one step, 27 + 7 = 34 slots. Bytes per row:
    // offset 4 + len x (Aj 4 + Ax 4 + x 4) + y 4: len 1 -> 20, 2 -> 32, 3 -> 44, 10 -> 128.
    const SpmvCsrWork two(offsets(k1_2_3_10), 64, SpmvCosts{});  // 2 warps per block: rows {0,1}, {2,3}
    CHECK(two.blocks() == 2);
    CHECK(two.active_warps(1, 2) == 2);
    const auto w1 = two.warp_work(1);
    REQUIRE(w1);
    CHECK(w1->issue_slots == doctest::Approx(34));
    CHECK(w1->dram_bytes == doctest::Approx((44 + 128) / 2.0));
    CHECK(two.warp_work(0)->dram_bytes == doctest::Approx((20 + 32) / 2.0));
    CHECK(two.duration(1) == 34'000);  // 34 slots x 1 ns
    const SpmvCsrWork one(offsets(k1_2_3_10), 128, SpmvCosts{});  // 4 warps: all rows in block 0
    CHECK(one.blocks() == 1);
    CHECK(one.warp_work(0)->dram_bytes == doctest::Approx((20 + 32 + 44 + 128) / 4.0));

    // Lengths 1, 40, 70: ceil(len/32) = 1, 2, 3 steps -> 34, 41, 48 slots. One 4-warp block with 3
    // active warps: mean 41, the busiest 48 (the fixed duration), latency 3 steps x 10 cycles.
    SpmvCosts c;
    c.iter_latency_cycles = 10;
    c.ns_per_instr = 0.5;
    const SpmvCsrWork mixed(offsets({0, 1, 41, 111}), 128, c);
    CHECK(mixed.active_warps(0, 4) == 3);
    CHECK(mixed.warp_work(0)->issue_slots == doctest::Approx(41));
    CHECK(mixed.duration(0) == 24'000);  // 48 x 0.5 ns
    CHECK(mixed.latency_bound_cycles(0) == doctest::Approx(30));
    CHECK(warp_work_at_clock(mixed, 0, 1000)->latency_bound == 30'000);  // 30 cycles at 1 GHz
}

TEST_CASE("spmv ell: one thread per row, padded to the width; warps run the body for their longest row") {
    // Width 10, one warp of 4 rows: 8 + 10 x 4 + 10 x 3 = 78 slots; bytes 4 rows x (10 x 4 + 4)
    // + 16 entries x (Ax 4 + x 4) = 176 + 128 = 304.
    const SpmvEllWork one(offsets(k1_2_3_10), 10, 64, SpmvCosts{});
    CHECK(one.blocks() == 1);
    CHECK(one.active_warps(0, 2) == 1);
    CHECK(one.warp_work(0)->issue_slots == doctest::Approx(78));
    CHECK(one.warp_work(0)->dram_bytes == doctest::Approx(304));
    // Two threads per block: block 0 = rows {1, 2}: longest 2 -> 8 + 40 + 6 = 54 slots,
    // 2 x 44 + 3 x 8 = 112 bytes; block 1 = rows {3, 10}: 78 slots, 2 x 44 + 13 x 8 = 192 bytes.
    const SpmvEllWork pairs(offsets(k1_2_3_10), 10, 2, SpmvCosts{});
    CHECK(pairs.blocks() == 2);
    CHECK(pairs.warp_work(0)->issue_slots == doctest::Approx(54));
    CHECK(pairs.warp_work(0)->dram_bytes == doctest::Approx(112));
    CHECK(pairs.warp_work(1)->issue_slots == doctest::Approx(78));
    CHECK(pairs.warp_work(1)->dram_bytes == doctest::Approx(192));
    CHECK(pairs.duration(0) == 54'000);
    // Width 3 (HYB's ELL part): lengths clamp to 1, 2, 3, 3: 8 + 12 + 9 = 29 slots,
    // 4 x (12 + 4) + 9 x 8 = 136 bytes.
    const SpmvEllWork clamped(offsets(k1_2_3_10), 3, 64, SpmvCosts{}, "hyb-ell");
    CHECK(clamped.warp_work(0)->issue_slots == doctest::Approx(29));
    CHECK(clamped.warp_work(0)->dram_bytes == doctest::Approx(136));
}

TEST_CASE("spmv coo: one thread per non-zero; bytes count the distinct rows of each warp") {
    // One warp of 16 entries over 4 rows: 30 slots; 16 x 2 x (4 + 4) + 4 rows x 2 x 4 = 288 bytes.
    const SpmvCooWork one(offsets(k1_2_3_10), 32, SpmvCosts{});
    CHECK(one.blocks() == 1);
    CHECK(one.warp_work(0)->issue_slots == doctest::Approx(30));
    CHECK(one.warp_work(0)->dram_bytes == doctest::Approx(288));
    // Four entries per block: entries 0-3 are rows 0,1,1,2 (3 rows) -> 64 + 24 = 88 bytes;
    // 4-7 rows 2,2,3,3 -> 64 + 16 = 80; 8-11 and 12-15 row 3 only -> 64 + 8 = 72.
    const SpmvCooWork four(offsets(k1_2_3_10), 4, SpmvCosts{});
    CHECK(four.blocks() == 4);
    CHECK(four.warp_work(0)->dram_bytes == doctest::Approx(88));
    CHECK(four.warp_work(1)->dram_bytes == doctest::Approx(80));
    CHECK(four.warp_work(2)->dram_bytes == doctest::Approx(72));
    CHECK(four.warp_work(3)->dram_bytes == doctest::Approx(72));
    // Empty rows in between are not counted: lengths 2, 0, 0, 3; entries 1 and 2 are rows 0 and 3.
    const SpmvCooWork gaps(offsets({0, 2, 2, 2, 5}), 32, SpmvCosts{});
    CHECK(gaps.distinct_rows(1, 3) == 2);
    CHECK(gaps.distinct_rows(0, 5) == 2);
    CHECK(gaps.distinct_rows(2, 3) == 1);
}

TEST_CASE("spmv hyb: Bell & Garland's width rule and the COO remainder") {
    // Rows with >= k entries: k=1: 4, 2: 3, 3: 2, 4..10: 1. Needed max(0, 4 / 2) = 2 -> K = 3.
    CHECK(hyb_width(k1_2_3_10, 2, 0) == 3);
    CHECK(hyb_width(k1_2_3_10, 1, 0) == 1);     // needs all 4 rows
    CHECK(hyb_width(k1_2_3_10, 3, 4096) == 0);  // fewer than 4096 rows: all COO
    CHECK(hyb_coo_offsets(k1_2_3_10, 3) == std::vector<std::uint64_t>{0, 0, 0, 0, 7});
}

TEST_CASE("spmv spec: a Matrix Market file, each format, the grid from the matrix") {
    const std::string m = "matrix=" + data("lengths_1_2_3_10.mtx");
    const KernelLaunch csr = spec("spmv:format=csr," + m + ",threads=64");
    CHECK(csr.name == "spmv-csr");
    CHECK(csr.blocks() == 2);
    CHECK(csr.work->warp_work(1)->dram_bytes == doctest::Approx(86));
    const KernelLaunch ell = spec("spmv:format=ell," + m);  // 256 threads by default: one block
    CHECK(ell.threads_per_block() == 256);
    CHECK(ell.blocks() == 1);
    CHECK(ell.work->warp_work(0)->issue_slots == doctest::Approx(78));
    CHECK(spec("spmv:format=coo," + m + ",threads=4").blocks() == 4);

    // HYB: width 3 by the rule with speed 2, breakeven 0: an ELL launch, then 7 entries of COO.
    const SpecLaunches hyb = parse_kernel_spec_launches("spmv:format=hyb," + m + ",hyb_speed=2,hyb_breakeven=0", "--kernel");
    CHECK(hyb.launch.name == "spmv-hyb-ell");
    CHECK(dynamic_cast<const SpmvEllWork&>(*hyb.launch.work).width() == 3);
    REQUIRE(hyb.then.size() == 1);
    CHECK(hyb.then[0].name == "spmv-hyb-coo");
    CHECK(dynamic_cast<const SpmvCooWork&>(*hyb.then[0].work).nnz() == 7);
    const Application app = application_from_specs({"spmv:format=hyb," + m + ",hyb_width=3"});
    REQUIRE(app.launches.size() == 2);
    CHECK(app.launches[1].blocks() == 1);
    // With the default rule a 4-row matrix is all COO: one launch.
    CHECK(application_from_specs({"spmv:format=hyb," + m}).launches.size() == 1);
    CHECK(application_from_specs({"spmv:format=hyb," + m}).launches[0].name == "spmv-hyb-coo");
    // Width 10 leaves nothing to COO.
    CHECK(application_from_specs({"spmv:format=hyb," + m + ",hyb_width=10"}).launches.size() == 1);
}

TEST_CASE("spmv spec: generated matrices, determinism, workload files") {
    const KernelLaunch a = spec("spmv:format=csr,gen=qcd,rows=640,seed=3");
    const KernelLaunch b = spec("spmv:format=csr,gen=qcd,rows=640,seed=3");
    CHECK(a.blocks() == 80);  // 640 rows / 8 warps per block
    for (std::uint64_t blk : {0, 40, 79}) {
        CHECK(a.work->warp_work(blk)->dram_bytes == b.work->warp_work(blk)->dram_bytes);
        // QCD: 39 entries per row -> 2 steps, 27 + 14 = 41 slots in every warp.
        CHECK(a.work->warp_work(blk)->issue_slots == doctest::Approx(41));
    }
    CHECK(a.work->describe() == "spmv csr (vector, one warp per row): 640 rows, 24960 non-zeros, 80 blocks");
    const Application app = application_from_specs({"spmv:format=ell,gen=epidemiology,rows=1000"});
    CHECK(app.launches.size() == 1);
    CHECK(app.launches[0].blocks() == 4);
}

TEST_CASE("spmv spec: bad keys and a bad matrix file name what and where") {
    const std::string m = ",matrix=" + data("lengths_1_2_3_10.mtx");
    check_error_contains("spmv:gen=qcd", "kernel 'spmv': required key 'format' is missing");
    check_error_contains("spmv:format=dia,gen=qcd", "key 'format': expected csr, ell, coo or hyb, got 'dia'");
    check_error_contains("spmv:format=csr", "give exactly one of 'matrix=PATH'");
    check_error_contains("spmv:format=csr,gen=qcd" + m, "give exactly one of 'matrix=PATH'");
    check_error_contains("spmv:format=csr,gen=nope", "key 'gen': unknown matrix generator 'nope' (known: dense, protein");
    check_error_contains("spmv:format=csr,gen=qcd,blocks=4", "key 'blocks': spmv sizes its grid from the matrix");
    check_error_contains("spmv:format=csr,gen=qcd,threads=48", "key 'threads': the CSR vector kernel runs one warp per row");
    check_error_contains("spmv:format=csr,gen=dense,rows=50000", "key 'rows': 50000 rows of 'dense' would hold more");
    check_error_contains("spmv:format=csr,gen=qcd,rows=0", "key 'rows'");
    check_error_contains("spmv:format=csr,seed=2" + m, "key 'seed': applies only to a generated matrix");
    check_error_contains("spmv:format=ell,hyb_width=3" + m, "key 'hyb_width': applies only to format=hyb");
    check_error_contains("spmv:format=csr,frob=1" + m, "frob");
    check_error_contains("spmv:format=csr,matrix=" + data("truncated.mtx"),
                         "truncated.mtx:5: the file ends after 3 of the 4 entries");
}
