// Engine throughput benchmark: fixed-duration blocks through the full engine vs the barest heap loop.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <queue>
#include <string>
#include <vector>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/support/input_error.h"
#include "gpusched/scheduler/registry.h"
#include "gpusched/sim/simulation.h"

using namespace gpusched;

namespace {

/// Durations 20us..60us from a hash of the block index (lazy, deterministic, no storage),
/// or a constant 50us when `constant` is set.
class HashedDurations final : public workloads::BlockWork {
public:
    explicit HashedDurations(bool constant) : constant_(constant) {}
    Time duration(std::uint64_t b) const override { return constant_ ? 50000000 : 20000000 + mix(b) % 40000000; }
    bool same_duration_for_every_block() const override { return constant_; }
    std::string describe() const override { return constant_ ? "constant 50us" : "hashed 20us..60us"; }
    static std::uint64_t mix(std::uint64_t x) {
        x += 0x9e3779b97f4a7c15ULL;
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
        return x ^ (x >> 31);
    }

private:
    bool constant_;
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

long max_rss_kib() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

/// The floor: a list-scheduling loop with one binary heap of block end times, `slots`
/// resident blocks, no SMs, no policies, no events beyond completions.
Time bare_heap_loop(std::uint64_t blocks, std::size_t slots, const HashedDurations& work) {
    std::priority_queue<Time, std::vector<Time>, std::greater<>> ends;
    Time now = 0;
    for (std::uint64_t b = 0; b < blocks; ++b) {
        if (ends.size() == slots) {
            now = ends.top();
            ends.pop();
        }
        ends.push(now + work.duration(b));
    }
    while (!ends.empty()) {
        now = ends.top();
        ends.pop();
    }
    return now;
}

struct Measurement {
    double best_seconds = 1e300;
    Time makespan = 0;
};

template <typename F>
Measurement best_of(int repeats, F&& run) {
    Measurement m;
    for (int i = 0; i < repeats; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        m.makespan = run();
        m.best_seconds = std::min(m.best_seconds, seconds_since(t0));
    }
    return m;
}

}  // namespace

int main(int argc, char** argv) {
    std::uint64_t blocks = 20000000;
    int threads = 256;
    int repeats = 3;
    bool constant = false;
    std::string policy_name = "most-room";
    if (argc > 4) policy_name = argv[4];
    if (argc > 1) blocks = std::strtoull(argv[1], nullptr, 10);
    if (argc > 2) threads = std::atoi(argv[2]);
    if (argc > 3) constant = std::string(argv[3]) == "constant";
    if (blocks == 0 || threads <= 0 || (argc > 3 && !constant && std::string(argv[3]) != "random")) {
        std::fprintf(stderr, "usage: bench_engine [BLOCKS] [THREADS_PER_BLOCK] [random|constant] [POLICY]\n");
        return 2;
    }
    // The preset's measured launch and dispatch overheads are cleared so that the engine and the
    // floor compute the same schedule (their makespans are printed as a cross-check).
    hw::GpuSpec gpu = hw::resolve_gpu("h100");
    gpu.kernel_launch_ns.reset();
    gpu.block_dispatch_latency_ns.reset();
    gpu.block_dispatch_interval_ns.reset();
    gpu.sm_block_launch_ns.reset();
    gpu.sm_warp_launch_ns.reset();
    gpu.block_completion_interval_ns.reset();
    workloads::Application app;
    workloads::KernelLaunch k;
    k.name = "bench";
    k.grid.x = static_cast<std::uint32_t>(std::min<std::uint64_t>(blocks, 0xffffffffu));
    k.block.x = static_cast<std::uint32_t>(threads);
    k.registers_per_thread = 32;
    k.work = std::make_shared<HashedDurations>(constant);
    app.launches.push_back(k);
    std::unique_ptr<sim::DispatchPolicy> policy;
    try {
        policy = scheduler::make_policy(policy_name);
    } catch (const InputError& e) {
        std::fprintf(stderr, "bench_engine: %s\n", e.what());
        return 2;
    }
    sim::Simulation probe(gpu, app, *policy, "fixed");
    const auto slots = static_cast<std::size_t>(probe.occupancy()[0].blocks_per_sm) * gpu.sm_count;

    const HashedDurations work(constant);
    const Measurement floor = best_of(repeats, [&] { return bare_heap_loop(k.blocks(), slots, work); });
    const Measurement engine = best_of(repeats, [&] {
        sim::Simulation run(gpu, app, *policy, "fixed");
        return run.run().makespan;
    });
    // The engine's block loop alone: every wave dispatched, none replayed (sim/engine/wave_replay.h).
    const Measurement blockwise = best_of(repeats, [&] {
        sim::Simulation run(gpu, app, *policy, "fixed");
        run.replay_waves(false);
        return run.run().makespan;
    });
    const double floor_rate = static_cast<double>(k.blocks()) / floor.best_seconds;
    const double engine_rate = static_cast<double>(k.blocks()) / engine.best_seconds;
    const double blockwise_rate = static_cast<double>(k.blocks()) / blockwise.best_seconds;
    std::printf("blocks            %llu x %d threads on h100 (%zu resident), %s, %s durations\n",
                static_cast<unsigned long long>(k.blocks()), threads, slots, policy_name.c_str(), work.describe().c_str());
    std::printf("%-28s %10s %14s %16s\n", "loop", "seconds", "blocks/s", "makespan (us)");
    std::printf("%-28s %10.3f %14.3e %16.3f\n", "bare binary-heap floor", floor.best_seconds, floor_rate,
                static_cast<double>(floor.makespan) / 1e6);
    std::printf("%-28s %10.3f %14.3e %16.3f\n", "gpusched engine", engine.best_seconds, engine_rate,
                static_cast<double>(engine.makespan) / 1e6);
    std::printf("%-28s %10.3f %14.3e %16.3f\n", "engine, no wave replay", blockwise.best_seconds, blockwise_rate,
                static_cast<double>(blockwise.makespan) / 1e6);
    std::printf("engine / floor    %.2f\n", engine_rate / floor_rate);
    std::printf("no replay / floor %.2f\n", blockwise_rate / floor_rate);
    std::printf("max RSS           %ld KiB\n", max_rss_kib());
    return 0;
}
