// streamcluster generator: per-block work of the gain kernel with rake size R, partial blocks, its copies, errors.
#include <doctest/doctest.h>

#include "support/spec_checks.h"

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/support/input_error.h"
#include "gpusched/workloads/cycle_latency.h"
#include "gpusched/workloads/kernel_spec.h"
#include "gpusched/workloads/streamcluster.h"
#include "gpusched/workloads/workload_file.h"

using namespace gpusched;
using namespace gpusched::workloads;
using test::check_error;
using test::check_error_contains;
using test::spec;

namespace {
const StreamclusterWork& sc(const KernelLaunch& k) { return dynamic_cast<const StreamclusterWork&>(*k.work); }
}  // namespace

TEST_CASE("streamcluster: hand-counted work of a tiny rake (N 10, R 4, 2 threads per block)") {
    // T = ceil(10 / 4) = 3 threads: thread 0 takes points 0,3,6,9; thread 1 1,4,7; thread 2 2,5,8.
    // Blocks of 2 threads: ceil(3 / 2) = 2, the second with one working thread.
    const KernelLaunch k = spec("streamcluster:points=10,dims=3,rake=4,threads=2,dim_latency_cycles=100");
    const auto& w = sc(k);
    CHECK(k.blocks() == 2);
    CHECK(w.keys().tines() == 3);
    CHECK(w.keys().points_of_thread(0) == 4);
    CHECK(w.keys().points_of_thread(1) == 3);
    CHECK(w.keys().points_of_thread(2) == 3);
    CHECK(w.keys().points_of_thread(3) == 0);
    CHECK(w.active_threads(0) == 2);
    CHECK(w.active_threads(1) == 1);
    CHECK(w.active_warps(1, 1) == 1);
    // Block 0: busiest thread 4 points x (3 dims x 6 + 20) = 152 slots; latency 4 x 3 x 100 = 1200 cycles.
    // Bytes: 7 points x (4 x 3 + 12) + 2 threads x 4 x 21 = 168 + 168 = 336, one warp.
    const auto w0 = w.warp_work(0);
    REQUIRE(w0);
    CHECK(w0->issue_slots == doctest::Approx(152));
    CHECK(w0->dram_bytes == doctest::Approx(336));
    CHECK(w.latency_bound_cycles(0) == doctest::Approx(1200));
    CHECK(w.duration(0) == 152'000);  // 152 slots x 1 ns
    // Block 1: 3 points x 38 = 114 slots; 3 x 24 + 84 = 156 bytes.
    CHECK(w.warp_work(1)->issue_slots == doctest::Approx(114));
    CHECK(w.warp_work(1)->dram_bytes == doctest::Approx(156));
    // At 1000 MHz, 1200 cycles are 1.2 us.
    CHECK(warp_work_at_clock(w, 0, 1000)->latency_bound == 1'200'000);
}

TEST_CASE("streamcluster: the measured H100 configurations (65536 points, 256 dims, K 20, 256 threads)") {
    // runs.csv: R -> tines, blocks, work_bytes (T x 21 x 4), flag_bytes 65536.
    const struct {
        int rake;
        std::uint64_t tines, blocks, work_bytes;
    } rows[] = {{1, 65536, 256, 5505024}, {8, 8192, 32, 688128}, {64, 1024, 4, 86016}, {512, 128, 1, 10752}};
    for (const auto& row : rows) {
        CAPTURE(row.rake);
        const KernelLaunch k = spec("streamcluster:points=65536,dims=256,regs=40,rake=" + std::to_string(row.rake));
        const auto& w = sc(k);
        CHECK(k.threads_per_block() == 256);
        CHECK(k.registers_per_thread == 40);
        CHECK(w.keys().tines() == row.tines);
        CHECK(k.blocks() == row.blocks);
        CHECK(w.keys().work_bytes() == row.work_bytes);
        CHECK(w.keys().switch_bytes() == 65536);
        // Every thread takes R points: R x (256 x 6 + 20) = 1556 R slots per warp.
        CHECK(w.warp_work(0)->issue_slots == doctest::Approx(1556.0 * row.rake));
    }
    // R = 512: 128 tines fill 4 of the block's 8 warps.
    const KernelLaunch k = spec("streamcluster:points=65536,dims=256,rake=512");
    CHECK(k.work->active_warps(0, 8) == 4);
    CHECK(k.work->describe() ==
          "streamcluster pgain, 65536 points x 256 dims, K 20, rake 512: 128 threads, 796672 issue slots per warp");
}

TEST_CASE("streamcluster: uneven rakes (R 3 over 65536 points) and a partial last block") {
    // T = ceil(65536 / 3) = 21846; 65536 = 2 x 21846 + 21844: threads 0..21843 take 3 points, 21844 and
    // 21845 take 2. Blocks ceil(21846 / 256) = 86; the last has 21846 - 85 x 256 = 86 threads (3 warps),
    // 84 of them with 3 points and 2 with 2: 256 points.
    const KernelLaunch k = spec("streamcluster:points=65536,dims=4,rake=3");
    const auto& w = sc(k);
    CHECK(w.keys().tines() == 21846);
    CHECK(k.blocks() == 86);
    CHECK(w.keys().points_of_thread(21843) == 3);
    CHECK(w.keys().points_of_thread(21844) == 2);
    CHECK(w.active_threads(85) == 86);
    CHECK(w.active_warps(85, 8) == 3);
    CHECK(w.keys().points_of_threads(85 * 256, 86 * 256) == 256);
    CHECK(w.busiest_points(85) == 3);
    std::uint64_t total = 0;
    for (std::uint64_t b = 0; b < k.blocks(); ++b) total += w.keys().points_of_threads(b * 256, (b + 1) * 256);
    CHECK(total == 65536);
    // Bytes of the last block: 256 x (16 + 12) + 86 x 84 = 7168 + 7224 = 14392, over 3 warps.
    CHECK(w.warp_work(85)->dram_bytes == doctest::Approx(14392.0 / 3));
}

TEST_CASE("streamcluster: one spec is C calls, each followed by its device-to-host copies") {
    const Application app = application_from_specs({"streamcluster:points=65536,dims=256,rake=8,calls=2"});
    REQUIRE(app.launches.size() == 2);
    REQUIRE(app.operations.size() == 6);
    const std::uint64_t bytes[] = {688128, 65536};
    for (std::size_t call = 0; call < 2; ++call) {
        CHECK(app.operations[3 * call].kind == Operation::Kind::kernel);
        CHECK(app.operations[3 * call].launch == call);
        for (std::size_t c = 0; c < 2; ++c) {
            const Operation& op = app.operations[3 * call + 1 + c];
            CHECK(op.kind == Operation::Kind::copy);
            CHECK(op.copy.direction == CopyDirection::device_to_host);
            CHECK(op.copy.bytes == bytes[c]);
            CHECK(op.copy.pinned);
        }
    }
    // The copy shrinks as 1/R: T x (K + 1) x 4 bytes.
    CHECK(application_from_specs({"streamcluster:points=1000,dims=2,rake=1"}).operations[1].copy.bytes == 1000 * 21 * 4);
    CHECK(application_from_specs({"streamcluster:points=1000,dims=2,rake=7"}).operations[1].copy.bytes == 143 * 21 * 4);
    CHECK(application_from_specs({"streamcluster:points=1000,dims=2,centers=3,rake=7"}).operations[1].copy.bytes ==
          143 * 4 * 4);

    const Application pageable =
        application_from_specs({"streamcluster:points=100,dims=2,copy=pageable,flag_bytes=0,stream=3"});
    REQUIRE(pageable.operations.size() == 2);
    CHECK_FALSE(pageable.operations[1].copy.pinned);
    CHECK(pageable.operations[1].stream == 3);
    CHECK(application_from_specs({"streamcluster:points=100,dims=2,copy=none"}).operations.empty());
}

TEST_CASE("after_each operations: other specs' launches get kernel operations too, in order") {
    const Application app = application_from_specs(
        {"synthetic:blocks=1,threads=32,duration=1us", "streamcluster:points=100,dims=2,flag_bytes=0",
         "synthetic:blocks=1,threads=32,duration=2us,stream=1"});
    REQUIRE(app.launches.size() == 3);
    REQUIRE(app.operations.size() == 4);
    CHECK(app.operations[0].kind == Operation::Kind::kernel);
    CHECK(app.operations[0].launch == 0);
    CHECK(app.operations[1].launch == 1);
    CHECK(app.operations[2].kind == Operation::Kind::copy);
    CHECK(app.operations[3].launch == 2);
    CHECK(app.operations[3].stream == 1);
}

TEST_CASE("streamcluster in a workload file: its copies follow each launch, at the item's line") {
    const Application app = parse_workload(R"(launches:
  - kernel: synthetic
    blocks: 1
    threads: 32
    duration: 1us
  - kernel: streamcluster
    points: 100
    dims: 2
    repeat: 2
)",
                                           "w.yaml");
    REQUIRE(app.launches.size() == 3);
    REQUIRE(app.operations.size() == 7);  // kernel; (kernel, work copy, flag copy) x 2
    CHECK(app.operations[2].kind == Operation::Kind::copy);
    CHECK(app.operations[2].where() == "w.yaml:6");
    CHECK(app.operations[6].copy.bytes == 100);
}

TEST_CASE("streamcluster: spec errors name the key") {
    check_error_contains("streamcluster:dims=2", "required key 'points' is missing");
    check_error_contains("streamcluster:points=10", "required key 'dims' is missing");
    check_error_contains("streamcluster:points=10,dims=2,blocks=4", "key 'blocks': streamcluster sizes its grid");
    check_error_contains("streamcluster:points=10,dims=2,rake=11", "key 'rake'");
    check_error_contains("streamcluster:points=10,dims=2,rake=0", "key 'rake'");
    check_error_contains("streamcluster:points=10,dims=2,copy=dma", "key 'copy': expected pinned, pageable or none");
    check_error_contains("streamcluster:points=10,dims=2,flag_bytes=9", "key 'flag_bytes'");
    check_error_contains("streamcluster:points=0,dims=2", "key 'points'");
    check_error_contains("streamcluster:points=10,dims=2,calls=0", "key 'calls'");
    check_error_contains("streamcluster:points=10,dims=2,instr_per_dim=-1", "key 'instr_per_dim'");
}
