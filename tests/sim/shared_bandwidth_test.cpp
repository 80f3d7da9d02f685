// The `shared` model's DRAM bandwidth share against hand-derived ends and a brute-force reference.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/workloads/kernel_spec.h"
#include "support/sim_fixtures.h"

using namespace gpusched;

namespace {
constexpr Time ns = 1000;  // picoseconds

/// One warp's work: issue slots W, DRAM bytes D, latency bound L.
struct Job {
    double slots = 0;
    double bytes = 0;
    Time latency = 0;
};

/// `sms` SMs (H100 limits, no launch or dispatch overheads: a spec of its own, so preset
/// changes cannot move these ends), each issuing C = 4 x 1 warp-instructions per cycle at
/// 1000 MHz: 4 slots per ns; DRAM bandwidth `gbps` GB/s = `gbps` bytes per ns (none: unlimited).
hw::GpuSpec gpu(int sms, std::optional<double> gbps, int blocks_per_sm = 32) {
    std::string yaml = "name: dram-test\nfull_name: DRAM share test GPU\ncompute_capability: \"9.0\"\nsm_count: " + std::to_string(sms) +
                       "\nlimits:\n  warp_size: 32\n  max_threads_per_sm: 2048\n  max_warps_per_sm: 64\n"
                       "  max_blocks_per_sm: " + std::to_string(blocks_per_sm) +
                       "\n  max_threads_per_block: 1024\n  registers_per_sm: 65536\n  max_registers_per_block: 65536\n"
                       "  max_registers_per_thread: 255\n  shared_memory_per_sm: 233472\n  shared_memory_per_block: 49152\n"
                       "  shared_memory_per_block_optin: 232448\n  reserved_shared_memory_per_block: 0\n"
                       "  shared_memory_configs_kib: [0, 228]\n"
                       "allocation:\n  register_granularity: warp\n  register_allocation_unit: 256\n"
                       "  register_sub_partitions: 4\n  shared_memory_allocation_unit: 128\n"
                       "execution:\n  warp_schedulers_per_sm: 4\n  issue_width: 1\n  clock_mhz: 1000\n";
    hw::GpuSpec g = hw::parse_gpu_spec(yaml, "shared_bandwidth_test");
    g.dram_bandwidth_gbps = gbps;  // set here: a test also uses values beyond the YAML's range
    return g;
}

/// One launch whose block i carries jobs[i] in each of its threads / 32 warps.
workloads::KernelLaunch kernel(std::vector<Job> jobs, int threads = 32) {
    auto k = test::launch(jobs.size(), threads, 0);
    k.work = std::make_shared<test::LambdaWork>(
        [](std::uint64_t) { return Time{0}; }, nullptr, [jobs](std::uint64_t b) {
            const Job& j = jobs[static_cast<std::size_t>(b)];
            return workloads::WarpWork{j.slots, j.latency, j.bytes};
        });
    return k;
}

test::Recorder run(const hw::GpuSpec& g, std::vector<Job> jobs, int threads = 32) {
    return test::run(g, test::app_of({kernel(std::move(jobs), threads)}), "most-room", nullptr, "shared");
}

/// Block index -> end time.
std::map<std::uint64_t, Time> ends_of(const test::Recorder& r) {
    std::map<std::uint64_t, Time> out;
    for (const auto& b : r.blocks) out[b.block] = b.end;
    return out;
}

std::map<std::uint64_t, Time> ends(const hw::GpuSpec& g, std::vector<Job> jobs, int threads = 32) {
    return ends_of(run(g, std::move(jobs), threads));
}

/// Everything a run reports per block, for comparing two runs.
std::vector<std::tuple<std::size_t, std::uint64_t, int, int, Time, Time, Time>> records(const test::Recorder& r) {
    std::vector<std::tuple<std::size_t, std::uint64_t, int, int, Time, Time, Time>> out;
    for (const auto& b : r.blocks) out.emplace_back(b.launch, b.block, b.sm, b.slot, b.dispatch, b.start, b.end);
    return out;
}
}  // namespace

TEST_CASE("bandwidth-bound blocks on two SMs both end at total bytes / B") {
    // W = 1000 slots, D = 100000 bytes, one warp per block: d = 100 bytes per slot. Alone a
    // warp issues 4 slots/ns, asking 4 x 100 = 400 bytes/ns. B = 100 bytes/ns.
    // Two SMs: demand 800, phi = 100 / 800 = 1/8, each issues 0.5 slots/ns: 1000 / 0.5 =
    // 2000 ns = (2 x 100000 bytes) / (100 bytes/ns).
    const auto two = ends(gpu(2, 100), {{1000, 100000}, {1000, 100000}});
    CHECK(two.at(0) == 2000 * ns);
    CHECK(two.at(1) == 2000 * ns);
    // One SM alone: phi = 100 / 400: 1000 ns = 100000 / 100 = max(bytes / B, issue time 250 ns).
    CHECK(ends(gpu(1, 100), {{1000, 100000}}).at(0) == 1000 * ns);
    // D = 10000: demand 40 <= 100, phi = 1: the issue time 1000 / 4 = 250 ns (bytes / B = 100 ns).
    CHECK(ends(gpu(1, 100), {{1000, 10000}}).at(0) == 250 * ns);
    // 8 warps (256 threads): issue time 8 x 1000 / 4 = 2000 ns. With 12500 bytes per warp the
    // block moves 100000 bytes: 1000 ns at B, so issue-bound: 2000 ns. With 50000 bytes per
    // warp: 400000 / 100 = 4000 ns.
    CHECK(ends(gpu(1, 100), {{1000, 12500}}, 256).at(0) == 2000 * ns);
    CHECK(ends(gpu(1, 100), {{1000, 50000}}, 256).at(0) == 4000 * ns);
}

TEST_CASE("a pure-compute block is not slowed by a DRAM-bound neighbour") {
    // Same SM: block 0 streams (W = 1000, D = 100000), block 1 computes (W = 500, D = 0), one
    // warp each. n = 2: 2 slots/ns per warp. Block 1 ends at 500 / 2 = 250 ns whatever block 0
    // waits for. Block 0 asks 2 x 100 = 200 bytes/ns of B = 100: phi = 1/2, 1 slot/ns; at 250 ns
    // it has 750 slots left, alone: asks 400, phi = 1/4, again 1 slot/ns: ends at 1000 ns.
    const auto same = ends(gpu(1, 100), {{1000, 100000}, {500, 0}});
    CHECK(same.at(1) == 250 * ns);
    CHECK(same.at(0) == 1000 * ns);
    // Without the bytes block 1 ends at the same 250 ns (and block 0 at 250 + 500 / 4 = 375 ns).
    const auto compute = ends(gpu(1, 100), {{1000, 0}, {500, 0}});
    CHECK(compute.at(1) == 250 * ns);
    CHECK(compute.at(0) == 375 * ns);
    // Two SMs: the streaming block takes 100000 / 100 = 1000 ns; the compute block its issue
    // time 1000 / 4 = 250 ns.
    const auto apart = ends(gpu(2, 100), {{1000, 100000}, {1000, 0}});
    CHECK(apart.at(0) == 1000 * ns);
    CHECK(apart.at(1) == 250 * ns);
}

TEST_CASE("phi changes when blocks start and end at different times: piecewise ends") {
    // Two SMs holding one block each, B = 400 bytes/ns; one warp per block, 4 slots/ns alone.
    //   block 0: W = 1000, D = 100000 (d = 100): asks 400 bytes/ns
    //   block 1: W = 200,  D = 20000  (d = 100): asks 400
    //   block 2: W = 1000, D = 50000  (d = 50):  asks 200; waits for a free SM
    // [0, 100 ns]: demand 800, phi = 1/2, 2 slots/ns each: block 1 ends at 200 / 2 = 100 ns,
    //   block 0 has 800 slots left. Block 2 starts on SM 1 at 100 ns.
    // [100, 400]: demand 600, phi = 2/3, 8/3 slots/ns each: block 0 ends 800 / (8/3) = 300 ns
    //   later, at 400 ns; block 2 has done 800 slots.
    // [400, 450]: demand 200 <= 400, phi = 1: block 2's last 200 slots take 50 ns: 450 ns.
    const auto e = ends(gpu(2, 400, 1), {{1000, 100000}, {200, 20000}, {1000, 50000}});
    CHECK(e.at(1) == 100 * ns);
    CHECK(e.at(0) == 400 * ns);
    CHECK(e.at(2) == 450 * ns);
}

TEST_CASE("with a dispatch latency a block's demand counts from its dispatch, its progress from its start") {
    // As above with a 100 ns dispatch latency. Blocks 0 and 1 are dispatched at 0 and start at
    // 100 ns; their demand (800) counts from 0, so phi = 1/2 from 0.
    // [100, 200]: 2 slots/ns: block 1 ends at 200 ns; block 0 has 800 left. Block 2 is
    //   dispatched at 200 ns (demand 600, phi = 2/3 from then) and starts at 300 ns.
    // [200, 500]: block 0 at 8/3 slots/ns: 800 slots in 300 ns, ends at 500 ns. Block 2 issues
    //   from 300 ns: 200 ns x 8/3 = 533.33 slots by 500 ns, 466.67 left.
    // From 500 ns alone, phi = 1, 4 slots/ns: 116.667 ns more: 616.667 ns, rounded up to the ps.
    hw::GpuSpec g = gpu(2, 400, 1);
    g.block_dispatch_latency_ns = 100;
    const auto e = ends(g, {{1000, 100000}, {200, 20000}, {1000, 50000}});
    CHECK(e.at(1) == 200 * ns);
    CHECK(e.at(0) == 500 * ns);
    CHECK(e.at(2) == 616667);
}

TEST_CASE("without a DRAM bandwidth in the spec, dram_bytes are ignored: the same as unlimited") {
    // The jobs of the piecewise test with B unlimited: each block issues at 4 slots/ns alone.
    // Block 1 ends at 200 / 4 = 50 ns, block 2 then runs 1000 / 4 = 250 ns: 300 ns; block 0 250 ns.
    const std::vector<Job> jobs{{1000, 100000}, {200, 20000}, {1000, 50000}};
    const auto none = ends(gpu(2, std::nullopt, 1), jobs);
    CHECK(none.at(0) == 250 * ns);
    CHECK(none.at(1) == 50 * ns);
    CHECK(none.at(2) == 300 * ns);
    CHECK(none == ends(gpu(2, 1e9, 1), jobs));                              // B far above any demand
    CHECK(none == ends(gpu(2, 400, 1), {{1000, 0}, {200, 0}, {1000, 0}}));  // no bytes at all
}

TEST_CASE("randomized: deterministic, and no block beats its issue time or its bytes / B") {
    for (unsigned seed = 1; seed <= 12; ++seed) {
        CAPTURE(seed);
        std::mt19937 rng(seed);
        auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
        const int sms = 1 + static_cast<int>(rng() % 6);
        const double gbps = uniform(20, 2000);
        hw::GpuSpec g = gpu(sms, gbps, 1 + static_cast<int>(rng() % 4));
        if (rng() % 2 == 0) g.block_dispatch_latency_ns = uniform(0, 300);
        const int threads = 32 << (rng() % 4);
        std::vector<Job> jobs(1 + rng() % 60);
        for (Job& j : jobs) {
            j.slots = uniform(10, 5000);
            j.bytes = rng() % 3 == 0 ? 0 : uniform(0, 400000);
            j.latency = rng() % 2 == 0 ? 0 : static_cast<Time>(uniform(0, 3000)) * ns;
        }
        const test::Recorder first = run(g, jobs, threads);
        const test::Recorder second = run(g, jobs, threads);
        REQUIRE(first.blocks.size() == jobs.size());
        CHECK(records(first) == records(second));
        // A warp issues at most C f / (warps of its block) = 4 / a slots/ns and W / L; the block's
        // bytes flow at most at B. Ends are whole ps rounded up.
        const double warps = threads / 32.0;
        for (const auto& b : first.blocks) {
            const Job& j = jobs[static_cast<std::size_t>(b.block)];
            const double took = static_cast<double>(b.end - b.start);
            const double issue = std::max(static_cast<double>(j.latency), warps * j.slots / 0.004);
            const double bytes = warps * j.bytes / (gbps * 1e-3);
            CHECK(took >= issue * (1 - 1e-9));
            CHECK(took >= bytes * (1 - 1e-9));
        }
    }
}

TEST_CASE("randomized: ends match a brute-force model that rescans every block at every end") {
    // All blocks resident from time 0 (no dispatch latency, room for all), so the reference
    // needs no scheduler: it recomputes every rate and phi after each end, in real numbers.
    // The engine rounds each end up to the ps, so ends may differ by about one ps per end.
    for (unsigned seed = 1; seed <= 20; ++seed) {
        CAPTURE(seed);
        std::mt19937 rng(seed);
        auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
        const int sms = 1 + static_cast<int>(rng() % 5);
        const double bandwidth = uniform(20, 1000) * 1e-3;  // bytes per ps
        const hw::GpuSpec g = gpu(sms, bandwidth * 1e3);
        const int threads = 32 << (rng() % 3);
        std::vector<Job> jobs(1 + rng() % static_cast<unsigned>(4 * sms));
        for (Job& j : jobs) {
            j.slots = uniform(10, 5000);
            j.bytes = rng() % 4 == 0 ? 0 : uniform(0, 400000);
            j.latency = rng() % 3 == 0 ? static_cast<Time>(uniform(0, 2000)) * ns : 0;
        }
        const test::Recorder r = run(g, jobs, threads);
        REQUIRE(r.blocks.size() == jobs.size());
        std::vector<int> sm_of(jobs.size());
        for (const auto& b : r.blocks) {
            REQUIRE(b.start == 0);
            sm_of[static_cast<std::size_t>(b.block)] = b.sm;
        }
        // Reference: fluid model with C f = 0.004 slots/ps per SM.
        const int warps = threads / 32;
        std::vector<double> remaining(jobs.size()), end(jobs.size(), -1);
        for (std::size_t i = 0; i < jobs.size(); ++i) remaining[i] = jobs[i].slots;
        double t = 0;
        std::size_t left = jobs.size();
        while (left > 0) {
            std::vector<int> n(static_cast<std::size_t>(sms), 0);
            for (std::size_t i = 0; i < jobs.size(); ++i)
                if (end[i] < 0) n[static_cast<std::size_t>(sm_of[i])] += warps;
            std::vector<double> rate(jobs.size(), 0);
            double demand = 0;
            for (std::size_t i = 0; i < jobs.size(); ++i) {
                if (end[i] >= 0) continue;
                const double share = 0.004 / n[static_cast<std::size_t>(sm_of[i])];
                rate[i] = jobs[i].latency > 0 ? std::min(share, jobs[i].slots / static_cast<double>(jobs[i].latency)) : share;
                demand += warps * rate[i] * jobs[i].bytes / jobs[i].slots;
            }
            const double phi = demand > bandwidth ? bandwidth / demand : 1.0;
            double step = 1e300;
            for (std::size_t i = 0; i < jobs.size(); ++i) {
                if (end[i] >= 0) continue;
                if (jobs[i].bytes > 0) rate[i] *= phi;
                step = std::min(step, remaining[i] / rate[i]);
            }
            t += step;
            for (std::size_t i = 0; i < jobs.size(); ++i) {
                if (end[i] >= 0) continue;
                remaining[i] -= rate[i] * step;
                if (remaining[i] <= 1e-9 * jobs[i].slots) {
                    end[i] = t;
                    --left;
                }
            }
        }
        const double slack = 2.0 * static_cast<double>(jobs.size()) + 2;  // ps
        for (const auto& b : r.blocks) {
            CAPTURE(b.block);
            CHECK(std::abs(static_cast<double>(b.end) - end[static_cast<std::size_t>(b.block)]) <= slack);
        }
    }
}

TEST_CASE("large APSP Min-plus run on the H100 preset: finishes, identical twice, slower with less bandwidth") {
    // 63 x 63 blocks of 16 x 16 threads per launch, 10 launches. D and P (8 MB) fit the H100's
    // L2, so with a 1 MiB L2 instead every warp moves DRAM bytes (the column tiles miss).
    const auto app = workloads::application_from_specs({"apsp-minplus:n=1000,block=16"});
    hw::GpuSpec h100 = hw::resolve_gpu("h100");
    REQUIRE(h100.dram_bandwidth_gbps);
    REQUIRE(h100.l2_bandwidth_gbps);
    const Time l2_resident = test::run(h100, app, "most-room", nullptr, "shared").makespan;
    h100.l2_bandwidth_gbps = *h100.l2_bandwidth_gbps / 10;  // all of its traffic is L2 hits
    CHECK(test::run(h100, app, "most-room", nullptr, "shared").makespan > l2_resident);
    h100 = hw::resolve_gpu("h100");
    h100.l2_bytes = 1 << 20;
    const auto a = test::run(h100, app, "most-room", nullptr, "shared");
    const auto b = test::run(h100, app, "most-room", nullptr, "shared");
    CHECK(a.blocks.size() == 10 * 63 * 63);
    CHECK(records(a) == records(b));
    CHECK(a.makespan == b.makespan);
    // With no bandwidth limit it can only be faster; at a hundredth of the bandwidth, slower
    // still (the column tiles' misses, ~29 MB per launch, then take longer than the issue time).
    h100.dram_bandwidth_gbps.reset();
    const Time unlimited = test::run(h100, app, "most-room", nullptr, "shared").makespan;
    h100.dram_bandwidth_gbps = 33.5;
    const Time hundredth = test::run(h100, app, "most-room", nullptr, "shared").makespan;
    CHECK(unlimited <= a.makespan);
    CHECK(a.makespan < hundredth);
}
