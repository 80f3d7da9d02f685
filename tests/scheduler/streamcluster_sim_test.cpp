// streamcluster simulated end to end: gain kernel then its two copies per call, by hand; determinism across R.
#include <doctest/doctest.h>

#include <string>

#include "support/sim_fixtures.h"

#include "gpusched/scheduler/registry.h"
#include "gpusched/sim/engine.h"
#include "gpusched/workloads/kernel_spec.h"

using namespace gpusched;

namespace {

/// 4 SMs, no overheads; a 10 GB/s link (100 ps per byte), pageable 5 GB/s, 1 us per copy.
hw::GpuSpec link_gpu() {
    hw::GpuSpec g = test::small_gpu(4);
    g.host_link_gbps = 10;
    g.host_link_pageable_gbps = 5;
    g.host_link_latency_ns = 1000;
    g.copy_engines = 2;
    return g;
}

Time makespan(const hw::GpuSpec& gpu, const std::string& spec, const std::string& exec = "fixed") {
    const workloads::Application app = workloads::application_from_specs({spec});
    const auto policy = scheduler::make_policy(scheduler::default_policy());
    sim::Engine engine(gpu, app, *policy, exec);
    return engine.run().makespan;
}

}  // namespace

TEST_CASE("streamcluster simulated: kernel, then the work-array and flag copies, per call") {
    // N 64, R 2: T = 32 threads, one block of 32; every thread 2 points of D 2:
    // 2 x (2 x 6 + 20) = 64 slots -> 64 ns (`fixed`, 1 ns per instruction).
    // Copies: work 32 x 21 x 4 = 2688 B: 1000 + 268.8 ns; flags 64 B: 1000 + 6.4 ns.
    // One call: 64 + 1268.8 + 1006.4 = 2339.2 ns.
    const hw::GpuSpec gpu = link_gpu();
    const std::string spec = "streamcluster:points=64,dims=2,rake=2,threads=32";
    CHECK(makespan(gpu, spec) == 2'339'200);
    // Two calls on one stream, back to back: twice that.
    CHECK(makespan(gpu, spec + ",calls=2") == 4'678'400);
    // Pageable (200 ps per byte): 64 + (1000 + 537.6) + (1000 + 12.8) = 2614.4 ns.
    CHECK(makespan(gpu, spec + ",copy=pageable") == 2'614'400);
    // No copies: the kernel alone.
    CHECK(makespan(gpu, spec + ",copy=none") == 64'000);
}

TEST_CASE("streamcluster simulated: identical runs give identical times, copies shrink with R") {
    const hw::GpuSpec gpu = link_gpu();
    Time previous_copy = 0;
    for (const int rake : {1, 2, 4, 8, 16}) {
        CAPTURE(rake);
        const std::string spec = "streamcluster:points=4096,dims=8,dim_latency_cycles=50,rake=" + std::to_string(rake);
        const Time a = makespan(gpu, spec, "shared");
        CHECK(a == makespan(gpu, spec, "shared"));
        const Time copy = a - makespan(gpu, spec + ",copy=none", "shared");
        if (previous_copy != 0) CHECK(copy < previous_copy);
        previous_copy = copy;
    }
}
