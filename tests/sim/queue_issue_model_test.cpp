// The `shared` model with execution.issue_model: queue, against hand-derived queueing arithmetic.
#include <doctest/doctest.h>

#include <cmath>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/support/input_error.h"
#include "support/sim_fixtures.h"

using namespace gpusched;

namespace {
constexpr Time ns = 1000;  // picoseconds

/// One SM, 4 schedulers issuing 1 warp-instruction per cycle each at 1000 MHz: s = 1 ns.
hw::GpuSpec one_sm(hw::GpuSpec::IssueModel model) {
    hw::GpuSpec g = test::small_gpu(1);
    g.warp_schedulers_per_sm = 4;
    g.issue_width = 1;
    g.clock_mhz = 1000;
    g.issue_model = model;
    g.issue_fair_warps.reset();  // the h100 preset's limit (3) off: older blocks first at any count
    return g;
}

workloads::KernelLaunch kernel(std::uint64_t blocks, int threads, double slots, Time latency) {
    auto k = test::launch(blocks, threads, 0);
    k.work = std::make_shared<test::LambdaWork>(
        [](std::uint64_t) { return Time{0}; }, [](std::uint64_t, int w) { return w; },
        [slots, latency](std::uint64_t) { return workloads::WarpWork{slots, latency, 0}; });
    return k;
}

Time makespan(const hw::GpuSpec& gpu, std::vector<workloads::KernelLaunch> launches) {
    return test::run(gpu, test::app_of(std::move(launches)), "most-room", nullptr, "shared").makespan;
}

constexpr auto queue = hw::GpuSpec::IssueModel::queue;
constexpr auto share = hw::GpuSpec::IssueModel::share;
}  // namespace

TEST_CASE("queue: a lone warp per scheduler runs at its latency bound") {
    // A 4-warp block: one warp per scheduler. W = 1000 slots, L = 3000 ns: Z = 3 - 1 = 2 ns per
    // slot, X(1) = 1 / (Z + s) = 1/3 per ns: 3000 ns, the latency bound, as with `share`.
    CHECK(makespan(one_sm(queue), {kernel(1, 128, 1000, 3000 * ns)}) == 3000 * ns);
    CHECK(makespan(one_sm(share), {kernel(1, 128, 1000, 3000 * ns)}) == 3000 * ns);
}

TEST_CASE("queue: two warps on a scheduler bend below the latency bound (MVA), share does not") {
    // An 8-warp block: 2 warps per scheduler, Z = 2, s = 1. MVA: X(1) = 1/3, Q(1) = 1/3;
    // R(2) = 4/3, X(2) = 2 / (10/3) = 0.6 per ns: each warp 0.3 per ns, 1000 / 0.3 = 3333.33 ns.
    // share: 8 warps share 4 per ns = 0.5 each > 1/3, so latency-bound: 3000 ns.
    const Time q = makespan(one_sm(queue), {kernel(1, 256, 1000, 3000 * ns)});
    CHECK(std::abs(static_cast<double>(q) - 1000.0 / 0.3 * ns) <= 1.0);
    CHECK(makespan(one_sm(share), {kernel(1, 256, 1000, 3000 * ns)}) == 3000 * ns);
}

TEST_CASE("queue: the older block is served first, the younger finishes later") {
    // Two 4-warp blocks together: block 0 (older) holds warp slots 0..3, block 1 slots 4..7, so
    // each scheduler has one warp of each. Block 0: X = 1/3 per ns, U = 1/3. Block 1 sees
    // s' = 1 / (1 - 1/3) = 1.5 ns: X = 1 / (2 + 1.5) = 1/3.5 per ns.
    // Block 0 ends at 3000 ns; block 1 has done 3000 / 3.5 = 857.14 slots, the other 142.86 at
    // 1/3 per ns take 428.57 ns: it ends at 3428.57 ns.
    // share: 8 warps, 0.5 per ns each > 1/3: both latency-bound, both end at 3000 ns.
    const Time q = makespan(one_sm(queue), {kernel(2, 128, 1000, 3000 * ns)});
    CHECK(std::abs(static_cast<double>(q) - (3000.0 + (1000.0 - 3000.0 / 3.5) * 3.0) * ns) <= 2.0);
    CHECK(makespan(one_sm(share), {kernel(2, 128, 1000, 3000 * ns)}) == 3000 * ns);
}

TEST_CASE("queue: with execution.issue_fair_warps two blocks within the limit end together") {
    // The two 4-warp blocks above with issue_fair_warps = 2: each scheduler's 2 warps form one
    // queue, X(2) = 0.6 per ns, each warp 0.3: both blocks end at 1000 / 0.3 = 3333.33 ns. With
    // the limit 1 the older block goes first again: 3428.57 ns.
    hw::GpuSpec gpu = one_sm(queue);
    gpu.issue_fair_warps = 2;
    const auto run = test::run(gpu, test::app_of({kernel(2, 128, 1000, 3000 * ns)}), "most-room", nullptr, "shared");
    REQUIRE(run.blocks.size() == 2);
    for (const auto& b : run.blocks) CHECK(std::abs(static_cast<double>(b.end) - 1000.0 / 0.3 * ns) <= 1.0);
    gpu.issue_fair_warps = 1;
    CHECK(std::abs(static_cast<double>(makespan(gpu, {kernel(2, 128, 1000, 3000 * ns)})) -
                   (3000.0 + (1000.0 - 3000.0 / 3.5) * 3.0) * ns) <= 2.0);
}

TEST_CASE("queue: without latency the oldest block takes its schedulers; the total is unchanged") {
    // Z = 0: a 4-warp block issues 1 per ns per scheduler; the younger one waits. Block 0 ends
    // at 1000 ns, block 1 runs alone from then: 2000 ns, the same total as share's 8 warps x
    // 1000 slots / 4 per ns (up to the starved block's creep of 10^-6 slots per ns).
    const Time q = makespan(one_sm(queue), {kernel(2, 128, 1000, 0)});
    CHECK(std::abs(static_cast<double>(q) - 2000.0 * ns) <= 1.0 * ns);
    CHECK(makespan(one_sm(share), {kernel(2, 128, 1000, 0)}) == 2000 * ns);
}

TEST_CASE("queue: the same run twice gives the same schedule") {
    const auto a = test::run(one_sm(queue), test::app_of({kernel(37, 96, 700, 2500 * ns)}), "most-room", nullptr, "shared");
    const auto b = test::run(one_sm(queue), test::app_of({kernel(37, 96, 700, 2500 * ns)}), "most-room", nullptr, "shared");
    CHECK(a.makespan == b.makespan);
    REQUIRE(a.blocks.size() == 37);
    REQUIRE(b.blocks.size() == 37);
    for (std::size_t i = 0; i < a.blocks.size(); ++i) {
        CHECK(a.blocks[i].block == b.blocks[i].block);
        CHECK(a.blocks[i].start == b.blocks[i].start);
        CHECK(a.blocks[i].end == b.blocks[i].end);
    }
}

TEST_CASE("execution.issue_model in a GPU file: share, queue, anything else is an error naming the key") {
    hw::GpuSpec h100 = hw::resolve_gpu("h100");
    CHECK(h100.issue_model == queue);  // the preset's choice (validation/data/h100/series_warps/)
    h100.issue_model = share;          // not written then: the tests below add the key themselves
    const std::string yaml = hw::to_yaml(h100);
    const auto with = [&](const std::string& line) { return test::with_execution_line(yaml, line); };
    CHECK(hw::parse_gpu_spec(with("  issue_model: queue"), "q.yaml").issue_model == queue);
    CHECK(hw::parse_gpu_spec(with("  issue_model: share"), "s.yaml").issue_model == share);
    CHECK_THROWS_WITH_AS(hw::parse_gpu_spec(with("  issue_model: fifo"), "bad.yaml"),
                         doctest::Contains("execution.issue_model"), InputError);
    CHECK_THROWS_WITH_AS(hw::parse_gpu_spec(with("  issue_model: fifo"), "bad.yaml"),
                         doctest::Contains("share, queue"), InputError);
}

TEST_CASE("execution.issue_fair_warps in a GPU file: a whole number of warps from 1, named when wrong") {
    const hw::GpuSpec h100 = hw::resolve_gpu("h100");
    REQUIRE(h100.issue_fair_warps.has_value());
    CHECK(*h100.issue_fair_warps == 3);  // series_warps/knee: 2 and 3 one-warp blocks end together, 4 do not
    hw::GpuSpec plain = h100;
    plain.issue_fair_warps.reset();
    const std::string yaml = hw::to_yaml(plain);
    CHECK(yaml.find("issue_fair_warps") == std::string::npos);
    CHECK(hw::to_yaml(h100).find("  issue_fair_warps: 3\n") != std::string::npos);
    const auto with = [&](const std::string& line) { return test::with_execution_line(yaml, line); };
    CHECK(*hw::parse_gpu_spec(with("  issue_fair_warps: 2"), "f.yaml").issue_fair_warps == 2);
    CHECK_THROWS_WITH_AS(hw::parse_gpu_spec(with("  issue_fair_warps: 0"), "bad.yaml"),
                         doctest::Contains("execution.issue_fair_warps"), InputError);
    CHECK_THROWS_WITH_AS(hw::parse_gpu_spec(with("  issue_fair_warps: 2.5"), "bad.yaml"),
                         doctest::Contains("execution.issue_fair_warps"), InputError);
}
