// TimeAccountCollector: hand-derived accounts of small runs, and the exact sum over many random workloads.
#include <doctest/doctest.h>

#include <random>
#include <sstream>

#include "gpusched/sim/output/run_explanation.h"
#include "gpusched/sim/output/time_account.h"
#include "support/sim_fixtures.h"

using namespace gpusched;
using sim::TimeCategory;

namespace {

constexpr Time kUs = 1'000'000;

sim::TimeAccount account_of(const hw::GpuSpec& gpu, const workloads::Application& app,
                            const std::string& policy = "most-room") {
    sim::TimeAccountCollector account(policy == "min");
    test::run(gpu, app, policy, &account);
    return account.account();
}

/// Every category but those listed is 0.
void check_only(const sim::TimeAccount& a, std::initializer_list<std::pair<TimeCategory, Time>> expected) {
    for (std::size_t c = 0; c < sim::kTimeCategories; ++c) {
        Time want = 0;
        for (const auto& [category, t] : expected)
            if (static_cast<std::size_t>(category) == c) want = t;
        CAPTURE(sim::time_category_name(static_cast<TimeCategory>(c)));
        CHECK(a.ps[c] == want);
    }
    CHECK(a.sum() == a.total());
}

}  // namespace

TEST_CASE("time account: one wave, free slots with nothing waiting are the tail") {
    // 2 SMs of 64 warp slots, 3 blocks of 32 warps for 10 us: SM-time 2 x 10 = 20 us. The 3 blocks
    // hold 96 of 128 slots for 10 us: 15 us active; the other 5 us are free with no block waiting: tail.
    const auto a = account_of(test::small_gpu(2), test::app_of({test::launch(3, 1024, 10 * kUs)}));
    CHECK(a.total() == 20 * kUs);
    check_only(a, {{TimeCategory::active_warps, 15 * kUs}, {TimeCategory::tail, 5 * kUs}});
}

TEST_CASE("time account: a partial block's idle warps are inactive, not active") {
    // 1 SM, 2 blocks of 32 warps for 10 us; block 1 has 8 active warps. Active: (32 + 8) / 64 x 10 = 6.25 us,
    // inactive: 24 / 64 x 10 = 3.75 us; the SM is full, nothing else.
    auto k = test::launch(2, 1024, 10 * kUs);
    k.work = std::make_shared<test::LambdaWork>([](std::uint64_t) { return 10 * kUs; },
                                                [](std::uint64_t b, int w) { return b == 1 ? 8 : w; });
    const auto a = account_of(test::small_gpu(1), test::app_of({k}));
    check_only(a, {{TimeCategory::active_warps, 6'250'000}, {TimeCategory::inactive_warps, 3'750'000}});
}

TEST_CASE("time account: free slots while blocks wait are the occupancy limit") {
    // 255 registers per thread: one 8-warp block per SM (the whole register file). 1 SM, 2 blocks of 10 us.
    // [0, 10): 8 / 64 x 10 = 1.25 us active, 8.75 us free while block 1 waits: occupancy limit.
    // [10, 20): 1.25 us active, 8.75 us free with nothing waiting: tail.
    auto k = test::launch(2, 256, 10 * kUs);
    k.registers_per_thread = 255;
    const auto a = account_of(test::small_gpu(1), test::app_of({k}));
    check_only(a, {{TimeCategory::active_warps, 2'500'000},
                   {TimeCategory::occupancy_limit, 8'750'000},
                   {TimeCategory::tail, 8'750'000}});
}

TEST_CASE("time account: launch overhead before each launch, dispatch latency before each block starts") {
    // kernel_launch_ns 2000, block_dispatch_latency_ns 1000; 1 SM; two 1-block launches of 32 warps for 10 us
    // on one stream. Launch 0: ready at 2 (overhead [0, 2)), dispatched at 2, starts at 3 ([2, 3) dispatch
    // latency), ends at 13; launch 1: ready at 15, starts at 16, ends at 26. Makespan 26 us: overhead 4,
    // dispatch latency 2, and each 10 us block holds half the slots: 10 active, 10 tail.
    hw::GpuSpec gpu = test::small_gpu(1);
    gpu.kernel_launch_ns = 2000;
    gpu.block_dispatch_latency_ns = 1000;
    const auto a = account_of(gpu, test::app_of({test::launch(1, 1024, 10 * kUs), test::launch(1, 1024, 10 * kUs)}));
    CHECK(a.makespan == 26 * kUs);
    check_only(a, {{TimeCategory::active_warps, 10 * kUs},
                   {TimeCategory::tail, 10 * kUs},
                   {TimeCategory::launch_overhead, 4 * kUs},
                   {TimeCategory::dispatch_latency, 2 * kUs}});
}

TEST_CASE("time account: host-issued launches wait for the host beyond the launch overhead") {
    // host_launch_interval_ns 30000: launch 1 is issued at 30 us; with kernel_launch_ns 2000 it is ready at
    // 32. Launch 0 runs [2, 12). [12, 30) is host-bound, [30, 32) launch overhead, launch 1 runs [32, 42).
    hw::GpuSpec gpu = test::small_gpu(1);
    gpu.kernel_launch_ns = 2000;
    gpu.host_launch_interval_ns = 30000;
    auto app = test::app_of({test::launch(1, 1024, 10 * kUs), test::launch(1, 1024, 10 * kUs)});
    app.host_issue = workloads::HostIssue::calls;
    const auto a = account_of(gpu, app);
    CHECK(a.makespan == 42 * kUs);
    check_only(a, {{TimeCategory::active_warps, 10 * kUs},
                   {TimeCategory::tail, 10 * kUs},
                   {TimeCategory::launch_overhead, 4 * kUs},
                   {TimeCategory::host_bound, 18 * kUs}});
}

TEST_CASE("time account: an SM outside a waiting launch's stream mask is in the tail, not waiting") {
    // 2 SMs; the launch's stream may use SM 0 only. 3 blocks of 32 warps for 10 us: SM 0 holds 2 for
    // [0, 10) (10 us active) and 1 for [10, 20) (5 active, 5 tail). SM 1 never may take a block: 20 us tail,
    // although block 2 waits during [0, 10). Total 40 us: 15 active, 25 tail.
    auto app = test::app_of({test::launch(3, 1024, 10 * kUs, 1)});
    app.streams.push_back({1, workloads::StreamPriority::normal, {0}});
    const auto a = account_of(test::small_gpu(2), app);
    check_only(a, {{TimeCategory::active_warps, 15 * kUs}, {TimeCategory::tail, 25 * kUs}});
}

TEST_CASE("time account: the categories add up exactly over many random workloads") {
    // Seeded: 300 workloads of 1-6 launches on 1-3 streams (1-300 blocks of 64-1024 threads, durations of
    // 1-5 us, some partial blocks), on 1-8 SMs with random overheads, under four policies. With the
    // overheads off every time is a whole microsecond, so floor(L x w / 64) is exact and busy must equal
    // the sum over blocks of (end - start) x warps / 64 (active likewise with active warps).
    std::mt19937_64 rng(20261126);
    const std::vector<std::string> policies = {"most-room", "round-robin", "buckets", "min"};
    int exact_checked = 0;
    for (int trial = 0; trial < 300; ++trial) {
        hw::GpuSpec gpu = test::small_gpu(1 + static_cast<int>(rng() % 8));
        const bool overheads = rng() % 2 == 0;
        if (overheads) {
            gpu.kernel_launch_ns = static_cast<double>(rng() % 3000);
            gpu.block_dispatch_latency_ns = static_cast<double>(rng() % 500);
            gpu.sm_block_launch_ns = 5.5;
            gpu.sm_warp_launch_ns = 4.26;
            gpu.host_launch_interval_ns = static_cast<double>(rng() % 5000);
        }
        std::vector<workloads::KernelLaunch> launches;
        const int count = 1 + static_cast<int>(rng() % 6);
        for (int l = 0; l < count; ++l) {
            const int threads = 64 << (rng() % 5);
            auto k = test::seeded_launch(1 + rng() % 300, threads, 5, static_cast<std::uint32_t>(rng()), static_cast<int>(rng() % 3));
            const std::uint64_t partial_every = 2 + rng() % 5;
            auto durations = k.work;
            k.work = std::make_shared<test::LambdaWork>([durations](std::uint64_t b) { return durations->duration(b); },
                                                        [partial_every](std::uint64_t b, int w) {
                                                            return b % partial_every == 0 ? std::max(1, w / 2) : w;
                                                        });
            launches.push_back(k);
        }
        auto app = test::app_of(launches);
        if (overheads && rng() % 2 == 0) app.host_issue = workloads::HostIssue::calls;
        if (rng() % 3 == 0) app.streams.push_back({1, workloads::StreamPriority::high, {0}});  // stream 1: SM 0 only
        if (rng() % 3 == 0) app.streams.push_back({2, workloads::StreamPriority::normal, {}});
        const std::string& policy = policies[rng() % policies.size()];
        CAPTURE(trial);
        CAPTURE(policy);
        sim::TimeAccountCollector account(policy == "min");
        const test::Recorder r = test::run(gpu, app, policy, &account);
        const sim::TimeAccount& a = account.account();
        REQUIRE(a.sum() == a.total());
        CHECK(a.total() == static_cast<Time>(gpu.sm_count) * r.makespan);
        if (overheads || policy == "min") continue;
        Time busy = 0, active = 0;  // x 64
        for (const auto& b : r.blocks) {
            const int w = app.launches[b.launch].threads_per_block() / 32;
            const int act = app.launches[b.launch].work->active_warps(b.block, w);
            busy += (b.end - b.start) * static_cast<Time>(w);
            active += (b.end - b.start) * static_cast<Time>(act);
        }
        CHECK(a.busy() * 64 == busy);
        CHECK(a.at(TimeCategory::active_warps) * 64 == active);
        ++exact_checked;
    }
    CHECK(exact_checked > 50);
}

TEST_CASE("occupancy_lift names the register count that fits one more block") {
    // 256 threads x 255 registers: 1 block per SM (65536 registers). 2 blocks need at most 128 registers per
    // thread (8 warps x 32 x 128 = 32768 each); the H100 allocates in units of 256 per warp, so 128 fits.
    auto launch = test::launch(1000, 256, kUs);
    launch.registers_per_thread = 255;
    const hw::GpuSpec gpu = test::small_gpu(1);
    const std::string lift = sim::occupancy_lift(gpu, launch, hw::compute_occupancy(gpu, launch.occupancy_request()));
    CHECK(lift.find("at most 128 registers per thread (now 255) give 2 blocks per SM") != std::string::npos);
    launch.registers_per_thread = 32;  // 8 blocks of 8 warps: the SM is full of warps, nothing to lift
    CHECK(sim::occupancy_lift(gpu, launch, hw::compute_occupancy(gpu, launch.occupancy_request())).empty());
}
