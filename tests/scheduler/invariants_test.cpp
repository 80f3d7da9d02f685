// Invariants on seeded random workloads: limits, exactly-once, work conservation, leftover, priorities, masks.
#include <doctest/doctest.h>

#include <random>
#include <set>

#include "gpusched/support/input_error.h"
#include "support/sim_fixtures.h"

using namespace gpusched;

namespace {
constexpr Time us = 1000000;

/// Tracks what is resident on every SM from dispatch/completion events and checks limits
/// at every dispatch; also checks every block runs exactly once.
class InvariantChecker final : public sim::SimObserver {
public:
    void on_begin(const sim::RunInfo& info) override {
        gpu_ = info.gpu;
        app_ = info.app;
        occ_ = info.occupancy;
        warps_.assign(static_cast<std::size_t>(gpu_->sm_count), 0);
        threads_.assign(warps_.size(), 0);
        blocks_.assign(warps_.size(), 0);
        shared_.assign(warps_.size(), 0);
        per_launch_resident_.assign(app_->launches.size(), std::vector<int>(warps_.size(), 0));
        seen_.assign(app_->launches.size(), {});
    }
    void on_block_dispatched(const sim::BlockRecord& b) override {
        const auto sm = static_cast<std::size_t>(b.sm);
        const auto& occ = occ_[b.launch];
        warps_[sm] += occ.warps_per_block;
        threads_[sm] += app_->launches[b.launch].threads_per_block();
        blocks_[sm] += 1;
        shared_[sm] += occ.shared_bytes_per_block;
        ++per_launch_resident_[b.launch][sm];
        CHECK(warps_[sm] <= gpu_->max_warps_per_sm);
        CHECK(threads_[sm] <= gpu_->max_threads_per_sm);
        CHECK(blocks_[sm] <= gpu_->max_blocks_per_sm);
        CHECK(shared_[sm] <= gpu_->shared_memory_per_sm);
        CHECK(per_launch_resident_[b.launch][sm] <= occ.blocks_per_sm);
        CHECK(b.start >= b.dispatch);
        CHECK(seen_[b.launch].insert(b.block).second);  // never dispatched twice
        const auto mask = app_->stream(app_->launches[b.launch].stream).sm_mask;
        if (!mask.empty()) CHECK(std::find(mask.begin(), mask.end(), b.sm) != mask.end());
    }
    void on_block_completed(const sim::BlockRecord& b) override {
        const auto sm = static_cast<std::size_t>(b.sm);
        const auto& occ = occ_[b.launch];
        warps_[sm] -= occ.warps_per_block;
        threads_[sm] -= app_->launches[b.launch].threads_per_block();
        blocks_[sm] -= 1;
        shared_[sm] -= occ.shared_bytes_per_block;
        --per_launch_resident_[b.launch][sm];
        CHECK(b.end >= b.start);
    }
    void check_all_ran() const {
        for (std::size_t i = 0; i < app_->launches.size(); ++i) CHECK(seen_[i].size() == app_->launches[i].blocks());
        for (std::size_t sm = 0; sm < blocks_.size(); ++sm) CHECK(blocks_[sm] == 0);
    }

private:
    const hw::GpuSpec* gpu_ = nullptr;
    const workloads::Application* app_ = nullptr;
    std::vector<hw::OccupancyResult> occ_;
    std::vector<int> warps_, threads_, blocks_;
    std::vector<std::int64_t> shared_;
    std::vector<std::vector<int>> per_launch_resident_;
    std::vector<std::set<std::uint64_t>> seen_;
};

/// Single-launch work conservation: whenever simulated time moves on while blocks are still
/// undispatched, every SM must have been full (blocks_per_sm resident) at the previous instant.
class WorkConservationChecker final : public sim::SimObserver {
public:
    explicit WorkConservationChecker(std::uint64_t blocks) : blocks_(blocks) {}
    void on_begin(const sim::RunInfo& info) override {
        bps_ = info.occupancy[0].blocks_per_sm;
        resident_.assign(static_cast<std::size_t>(info.gpu->sm_count), 0);
    }
    void on_block_dispatched(const sim::BlockRecord& b) override {
        advance(b.dispatch);
        ++resident_[static_cast<std::size_t>(b.sm)];
        ++dispatched_;
    }
    void on_block_completed(const sim::BlockRecord& b) override {
        advance(b.end);
        --resident_[static_cast<std::size_t>(b.sm)];
    }
    int violations = 0;

private:
    void advance(Time t) {
        if (t > last_ && started_ && dispatched_ < blocks_)
            for (int r : resident_) violations += r < bps_ ? 1 : 0;
        started_ = true;
        last_ = t;
    }
    std::uint64_t blocks_;
    int bps_ = 0;
    std::vector<int> resident_;
    std::uint64_t dispatched_ = 0;
    Time last_ = 0;
    bool started_ = false;
};

std::uint64_t pick(std::mt19937_64& rng, std::uint64_t lo, std::uint64_t hi) { return lo + rng() % (hi - lo + 1); }

workloads::Application random_app(std::mt19937_64& rng, int sms) {
    workloads::Application app;
    const int streams = static_cast<int>(pick(rng, 1, 3));
    for (int s = 0; s < streams; ++s) {
        workloads::StreamConfig cfg;
        cfg.id = s;
        cfg.priority = pick(rng, 0, 3) == 0 ? workloads::StreamPriority::high : workloads::StreamPriority::normal;
        if (pick(rng, 0, 3) == 0)
            for (int sm = 0; sm < sms; ++sm)
                if (pick(rng, 0, 1) == 0 || sm == s % sms) cfg.sm_mask.push_back(sm);
        app.streams.push_back(cfg);
    }
    const int launches = static_cast<int>(pick(rng, 1, 6));
    for (int i = 0; i < launches; ++i) {
        auto k = test::launch(pick(rng, 1, 200), static_cast<int>(pick(rng, 1, 32) * 32), 0,
                              static_cast<int>(pick(rng, 0, static_cast<std::uint64_t>(streams) - 1)));
        k.registers_per_thread = static_cast<int>(pick(rng, 0, 64));
        k.dynamic_shared_bytes = pick(rng, 0, 2) == 0 ? static_cast<std::int64_t>(pick(rng, 0, 60000)) : 0;
        const std::uint64_t seed = rng();
        k.work = std::make_shared<test::LambdaWork>([seed](std::uint64_t b) {
            return (1 + (seed ^ (b * 0x9e3779b97f4a7c15ULL)) % 50) * us;
        });
        app.launches.push_back(k);
    }
    return app;
}
}  // namespace

TEST_CASE("random workloads: limits hold at every instant and every block runs exactly once") {
    std::mt19937_64 rng(20261122);
    int runs = 0;
    for (int trial = 0; trial < 60; ++trial) {
        const int sms = static_cast<int>(pick(rng, 1, 8));
        const auto app = random_app(rng, sms);
        for (const auto& info : scheduler::policies()) {
            if (info.name == "min") continue;  // warp-level units: checked separately below
            CAPTURE(trial);
            CAPTURE(info.name);
            InvariantChecker checker;
            const auto gpu = info.name == "walk" ? test::small_gpu_with_walk(sms) : test::small_gpu(sms);
            test::run(gpu, app, info.name, &checker);
            checker.check_all_ran();
            ++runs;
        }
    }
    CHECK(runs == 360);
}

TEST_CASE("work-conserving policies never leave a block waiting while an SM could take it") {
    std::mt19937_64 rng(7);
    for (int trial = 0; trial < 40; ++trial) {
        const int sms = static_cast<int>(pick(rng, 1, 10));
        const std::uint64_t blocks = pick(rng, 1, 500);
        auto k = test::launch(blocks, static_cast<int>(pick(rng, 1, 32) * 32), 0);
        k.registers_per_thread = static_cast<int>(pick(rng, 0, 64));
        const std::uint64_t seed = rng();
        k.work = std::make_shared<test::LambdaWork>([seed](std::uint64_t b) { return (1 + (seed + b * 7919) % 13) * us; });
        for (const std::string policy : {"most-room", "round-robin", "walk"}) {
            CAPTURE(trial);
            CAPTURE(policy);
            WorkConservationChecker wc(blocks);
            const auto gpu = policy == "walk" ? test::small_gpu_with_walk(sms) : test::small_gpu(sms);
            test::run(gpu, test::app_of({k}), policy, &wc);
            CHECK(wc.violations == 0);
        }
    }
}

TEST_CASE("leftover: the second kernel's blocks start only after the first is fully dispatched") {
    // Kernel A: 20 blocks x 1024 threads on 4 SMs (8 resident) of 10us; kernel B on another stream.
    // A is dispatched in waves at 0, 10, 20us; its last blocks are dispatched at 20us, so B's first
    // block (which could fit earlier if A left room) is dispatched no earlier than 20us.
    auto a = test::launch(20, 1024, 10 * us, 0);
    auto b = test::launch(4, 32, 1 * us, 1);
    const auto r = test::run(test::small_gpu(4), test::app_of({a, b}), "most-room");
    Time last_a_dispatch = 0, first_b_dispatch = ~Time{0};
    for (const auto& rec : r.blocks) {
        if (rec.launch == 0) last_a_dispatch = std::max(last_a_dispatch, rec.dispatch);
        if (rec.launch == 1) first_b_dispatch = std::min(first_b_dispatch, rec.dispatch);
    }
    CHECK(last_a_dispatch == 20 * us);
    CHECK(first_b_dispatch == 20 * us);  // leftover room of A's last wave: B fills it at once
}

TEST_CASE("a high-priority kernel overtakes a normal one at the next block dispatch") {
    // Stream 0 (normal): A, 40 blocks x 1024 threads, 10us each; 4 SMs hold 2 each.
    // Stream 1 (high): H0 (one 32-thread block, 1us), then B (8 blocks like A's).
    // t=0: H0 is offered first and takes SM0; A gets the other 7 slots.
    // t=1: H0 ends, B becomes ready and takes the freed slot on SM0 at once.
    // t=10: A's first wave ends; B's remaining 7 blocks are all dispatched before any of A's.
    // So no block of A is dispatched after B is ready until B is fully dispatched (at 10us).
    workloads::StreamConfig high;
    high.id = 1;
    high.priority = workloads::StreamPriority::high;
    auto a = test::launch(40, 1024, 10 * us, 0);
    auto h0 = test::launch(1, 32, 1 * us, 1);
    auto b = test::launch(8, 1024, 10 * us, 1);
    auto app = test::app_of({a, h0, b});
    app.streams = {high};
    const auto r = test::run(test::small_gpu(4), app, "most-room");
    CHECK(r.ready.at(2) == 1 * us);
    Time last_b_dispatch = 0;
    int a_in_first_wave = 0;
    for (const auto& rec : r.blocks) {
        if (rec.launch == 2) last_b_dispatch = std::max(last_b_dispatch, rec.dispatch);
        if (rec.launch == 0 && rec.dispatch == 0) ++a_in_first_wave;
    }
    CHECK(a_in_first_wave == 7);
    CHECK(last_b_dispatch == 10 * us);
    for (const auto& rec : r.blocks)
        if (rec.launch == 0 && rec.dispatch >= r.ready.at(2)) CHECK(rec.dispatch > last_b_dispatch);
}

TEST_CASE("SM masks partition the GPU; disjoint partitions run concurrently") {
    // Stream 0 on SMs {0,1}, stream 1 on SMs {2,3}: both kernels start at 0 despite leftover.
    workloads::StreamConfig s0, s1;
    s0.id = 0;
    s0.sm_mask = {0, 1};
    s1.id = 1;
    s1.sm_mask = {2, 3};
    auto app = test::app_of({test::launch(40, 1024, 10 * us, 0), test::launch(40, 1024, 10 * us, 1)});
    app.streams = {s0, s1};
    InvariantChecker checker;
    const auto r = test::run(test::small_gpu(4), app, "most-room", &checker);
    checker.check_all_ran();
    // Each partition: 40 blocks, 4 resident (2 SMs x 2) -> 10 waves of 10us.
    CHECK(r.makespan == 100 * us);
    CHECK(r.per_sm.at(2).front() == 0);  // launch 1's block 0 is the first block on SM2
}

TEST_CASE("an SM mask naming a missing SM is an input error") {
    workloads::StreamConfig s0;
    s0.sm_mask = {7};
    auto app = test::app_of({test::launch(4, 32, us)});
    app.streams = {s0};
    auto policy = scheduler::make_policy("most-room");
    CHECK_THROWS_WITH_AS(sim::Engine(test::small_gpu(4), app, *policy, "fixed"), doctest::Contains("SM 7"), InputError);
}

TEST_CASE("dispatch latency and interval from the spec shift block starts") {
    // Latency 2us: every block starts 2us after dispatch. Interval 1us: block i is dispatched
    // at i us (one dispatch per microsecond), so with 4 blocks of 10us the last ends at 3+2+10 = 15us.
    auto gpu = test::small_gpu(4);
    gpu.block_dispatch_latency_ns = 2000;
    gpu.block_dispatch_interval_ns = 1000;
    gpu.kernel_launch_ns = 0;
    const auto r = test::run(gpu, test::app_of({test::launch(4, 1024, 10 * us)}), "most-room");
    CHECK(r.makespan == 15 * us);
    for (const auto& rec : r.blocks) CHECK(rec.start == rec.dispatch + 2 * us);
}
