// The `shared` model with execution.l1_model: queue: an SM's L1-using blocks as one closed queue, worked by hand.
#include <doctest/doctest.h>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/sim/execution/shared_execution.h"
#include "gpusched/support/input_error.h"
#include "support/sim_fixtures.h"

using namespace gpusched;

namespace {
constexpr Time ns = 1000;  // picoseconds

/// One SM: C = 4 slots per cycle at 1000 MHz, M = 1 wavefront per ns, no DRAM or L2 limit.
hw::GpuSpec one_sm(hw::GpuSpec::L1Model model) {
    hw::GpuSpec g = test::small_gpu(1);
    g.dram_bandwidth_gbps.reset();
    g.l2_bandwidth_gbps.reset();
    g.l1_wavefronts_per_cycle = 1;
    g.l1_model = model;
    g.warp_schedulers_per_sm = 4;
    g.issue_width = 1;
    g.clock_mhz = 1000;
    return g;
}

/// `blocks` one-warp blocks: W = 1000 slots in a latency floor of 1000 ns (1 slot per ns, below
/// the issue share), 400 wavefronts each, so alone a block keeps the path busy u = 0.4 of the time.
/// `threads` per block (32: one warp); `by_block`: the block's warps queue as one customer.
Time makespan(hw::GpuSpec::L1Model model, std::uint64_t blocks, int threads = 32, bool by_block = false) {
    auto k = test::launch(blocks, threads, 0);
    k.work = std::make_shared<test::LambdaWork>(
        [](std::uint64_t) { return Time{0}; }, [](std::uint64_t, int w) { return w; },
        [by_block](std::uint64_t) {
            workloads::WarpWork w;
            w.issue_slots = 1000;
            w.latency_bound = 1000 * ns;
            w.l1_wavefronts = 400;
            w.l1_by_block = by_block;
            return w;
        });
    return test::run(one_sm(model), test::app_of({std::move(k)}), "most-room", nullptr, "shared").makespan;
}
}  // namespace

TEST_CASE("l1_queue_share: mean-value analysis of the SM's blocks on the L1 path") {
    using sim::SharedExecution;
    // Alone: a block's own wavefronts are part of its pace (psi = 1), unless it asks for more
    // than the path serves (u = 2: psi = 1 / 2).
    CHECK(SharedExecution::l1_queue_share(1, 0.5) == doctest::Approx(1));
    CHECK(SharedExecution::l1_queue_share(1, 2.0) == doctest::Approx(0.5));
    CHECK(SharedExecution::l1_queue_share(0, 3.0) == 1);
    // Two blocks of u = 0.38 (load 0.76): R(1) = 0.38, X(1) = 1, Q(1) = 0.38;
    // R(2) = 0.38 x 1.38 = 0.5244, X(2) = 2 / (0.62 + 0.5244) = 1.74764, psi = X / 2.
    CHECK(SharedExecution::l1_queue_share(2, 0.76) == doctest::Approx(2 / (0.62 + 0.5244) / 2));
    // Saturated: 8 blocks of u = 1 (think 0): X = 1, psi = 1 / 8, as the cap's M / demand.
    CHECK(SharedExecution::l1_queue_share(8, 8.0) == doctest::Approx(0.125));
}

TEST_CASE("blocks that share the L1 path slow each other before it is full") {
    using hw::GpuSpec;
    // Cap: two blocks ask for 0.4 + 0.4 = 0.8 of M: psi = 1, both take their 1000 ns floor.
    CHECK(makespan(GpuSpec::L1Model::cap, 2) == 1000 * ns);
    // Queue, 2 blocks of u = 0.4: R(2) = 0.4 x 1.4 = 0.56, X(2) = 2 / (0.6 + 0.56) = 1.72414,
    // psi = 0.86207: 1000 / 0.86207 = 1160 ns.
    CHECK(static_cast<double>(makespan(GpuSpec::L1Model::queue, 2)) == doctest::Approx(1160.0 * ns).epsilon(1e-6));
    // Cap, 3 blocks: 1.2 of M, psi = 1 / 1.2: 1200 ns. Queue: Q(2) = 1.72414 x 0.56 = 0.96552,
    // R(3) = 0.4 x 1.96552 = 0.78621, X(3) = 3 / (0.6 + 0.78621) = 2.16418, psi = 0.72139: 1386.2 ns.
    CHECK(static_cast<double>(makespan(GpuSpec::L1Model::cap, 3)) == doctest::Approx(1200.0 * ns).epsilon(1e-6));
    const double q2 = 2 / 1.16 * 0.56;
    const double x3 = 3 / (0.6 + 0.4 * (1 + q2));
    CHECK(static_cast<double>(makespan(GpuSpec::L1Model::queue, 3)) == doctest::Approx(1000.0 * ns * 3 / x3).epsilon(1e-6));
    CHECK(static_cast<double>(makespan(GpuSpec::L1Model::queue, 3)) == doctest::Approx(1386.2 * ns).epsilon(1e-4));
    // One block alone: 1000 ns either way.
    CHECK(makespan(GpuSpec::L1Model::queue, 1) == 1000 * ns);
}

TEST_CASE("a block whose warps pass barriers together is one customer of the L1 queue") {
    using hw::GpuSpec;
    // One block of 2 warps, each u = 0.4. As one customer: load 0.8 from one customer, u = 0.8,
    // alone: psi = 1, 1000 ns. As two (each warp): u = 0.4 each, psi = 0.86207, 1160 ns.
    CHECK(makespan(GpuSpec::L1Model::queue, 1, 64, true) == 1000 * ns);
    CHECK(static_cast<double>(makespan(GpuSpec::L1Model::queue, 1, 64, false)) ==
          doctest::Approx(1160.0 * ns).epsilon(1e-6));
    // Two such blocks as customers: u = 0.8 each: R(2) = 0.8 x 1.8 = 1.44, X(2) = 2 / (0.2 + 1.44)
    // = 1.21951, psi = 0.60976: 1640 ns (the cap: 1.6 of M, 1600 ns).
    CHECK(static_cast<double>(makespan(GpuSpec::L1Model::queue, 2, 64, true)) ==
          doctest::Approx(1640.0 * ns).epsilon(1e-6));
    CHECK(static_cast<double>(makespan(GpuSpec::L1Model::cap, 2, 64, true)) == doctest::Approx(1600.0 * ns).epsilon(1e-6));
}

TEST_CASE("execution.l1_model in a GPU file: cap, queue, anything else is an error naming the key") {
    hw::GpuSpec h100 = hw::resolve_gpu("h100");
    CHECK(h100.l1_model == hw::GpuSpec::L1Model::queue);  // the preset's choice
    CHECK(hw::resolve_gpu("h200").l1_model == hw::GpuSpec::L1Model::queue);
    CHECK(hw::resolve_gpu("a100").l1_model == hw::GpuSpec::L1Model::cap);
    // Written and read back.
    CHECK(hw::parse_gpu_spec(hw::to_yaml(h100), "h.yaml").l1_model == hw::GpuSpec::L1Model::queue);
    h100.l1_model = hw::GpuSpec::L1Model::cap;  // not written then
    const std::string yaml = hw::to_yaml(h100);
    CHECK(yaml.find("l1_model") == std::string::npos);
    const auto with = [&](const std::string& line) { return test::with_execution_line(yaml, line); };
    CHECK(hw::parse_gpu_spec(with("  l1_model: queue"), "q.yaml").l1_model == hw::GpuSpec::L1Model::queue);
    CHECK(hw::parse_gpu_spec(with("  l1_model: cap"), "c.yaml").l1_model == hw::GpuSpec::L1Model::cap);
    CHECK_THROWS_WITH_AS(hw::parse_gpu_spec(with("  l1_model: fifo"), "bad.yaml"),
                         doctest::Contains("execution.l1_model"), InputError);
    CHECK_THROWS_WITH_AS(hw::parse_gpu_spec(with("  l1_model: fifo"), "bad.yaml"), doctest::Contains("cap, queue"),
                         InputError);
}
