// Memoised identical launches give exactly the results of full simulation.
#include <doctest/doctest.h>

#include <sstream>

#include "gpusched/sim/output/summary_collector.h"
#include "gpusched/sim/output/timeline_csv.h"
#include "gpusched/workloads/kernel_spec.h"
#include "support/memo_run.h"
#include "support/sim_fixtures.h"

using namespace gpusched;

using test::RepeatCounter;

TEST_CASE("memoised runs equal full simulation over sizes, block sizes, policies and execution models") {
    const hw::GpuSpec gpu = hw::resolve_gpu("h100");  // with its measured launch and dispatch overheads
    int compared = 0, with_repeats = 0;
    for (const std::string generator : {"apsp-minplus", "apsp-fw"}) {
        for (int bs : {8, 16, 32}) {
            for (int n : {33, 65, 97, 130, 257}) {
                if (generator == "apsp-fw" && n > 130) continue;
                const std::string spec = generator + ":n=" + std::to_string(n) + ",block=" + std::to_string(bs);
                const auto app = workloads::application_from_specs({spec});
                for (const std::string policy : {"most-room", "round-robin", "buckets", "sorted"}) {
                    for (const std::string exec : {"shared", "fixed"}) {
                        CAPTURE(spec);
                        CAPTURE(policy);
                        CAPTURE(exec);
                        const test::MemoOutcome full = test::run_memoised(gpu, app, policy, exec, false);
                        const test::MemoOutcome memo = test::run_memoised(gpu, app, policy, exec, true);
                        CHECK(full.repeated == 0);
                        CHECK(memo.json == full.json);
                        // Every launch after the first repeats it: launches - 1 of them.
                        CHECK(memo.repeated == static_cast<int>(app.launches.size()) - 1);
                        with_repeats += memo.repeated > 0 ? 1 : 0;
                        ++compared;
                    }
                }
            }
        }
    }
    CHECK(compared == 216);  // (15 Min-plus + 12 Floyd-Warshall specs) x 4 policies x 2 models
    CHECK(with_repeats == compared);
}

TEST_CASE("memoised runs equal full simulation when identical launches alternate with others (a repeated step)") {
    // Three kernels, issued A B C A B C ... on one stream (each starts on an idle GPU): from the second round on,
    // every launch repeats its first-round recording, though others ran between.
    const hw::GpuSpec gpu = hw::resolve_gpu("h100");
    const auto a = workloads::application_from_specs({"apsp-minplus:n=65,block=16"});
    const auto b = workloads::application_from_specs({"apsp-fw:n=33,block=8"});
    const auto c = workloads::application_from_specs({"kernel:blocks=300,threads=128,warp_instr=2000,warp_dram_bytes=4096"});
    workloads::Application app;
    for (int round = 0; round < 4; ++round)
        for (const auto* part : {&a, &b, &c}) app.launches.push_back(part->launches[0]);
    for (const std::string policy : {"most-room", "round-robin"}) {
        for (const std::string exec : {"shared", "fixed"}) {
            CAPTURE(policy);
            CAPTURE(exec);
            const test::MemoOutcome full = test::run_memoised(gpu, app, policy, exec, false);
            const test::MemoOutcome memo = test::run_memoised(gpu, app, policy, exec, true);
            CHECK(memo.json == full.json);
            CHECK(memo.repeated == 9);  // rounds 2-4: 3 launches each
        }
    }
}

TEST_CASE("memoised runs equal full simulation under a host timeline on one stream, not on two") {
    // A B A B A B launched one call apart by a host thread (its next call always pending): on one stream
    // nothing can start beside a launch, so rounds 2-3 repeat round 1; with B on another stream, none repeats.
    const hw::GpuSpec gpu = hw::resolve_gpu("h100");
    const auto a = workloads::application_from_specs({"apsp-minplus:n=65,block=16"});
    const auto b = workloads::application_from_specs({"kernel:blocks=300,threads=128,warp_instr=2000,warp_dram_bytes=4096"});
    for (const int b_stream : {0, 1}) {
        CAPTURE(b_stream);
        workloads::Application app;
        for (int round = 0; round < 3; ++round) {
            app.launches.push_back(a.launches[0]);
            workloads::KernelLaunch second = b.launches[0];
            second.stream = b_stream;
            app.launches.push_back(second);
        }
        app.operations = app.issue_order();
        workloads::HostThread thread{"main", {}, ""};
        for (std::size_t i = 0; i < app.launches.size(); ++i) {
            workloads::HostCall call;
            call.ops = {i};
            call.gap = 3'000'000;  // 3 us between calls
            call.cpu = 5'000'000;
            thread.calls.push_back(call);
        }
        app.host.push_back(thread);
        const test::MemoOutcome full = test::run_memoised(gpu, app, "most-room", "shared", false);
        const test::MemoOutcome memo = test::run_memoised(gpu, app, "most-room", "shared", true);
        CHECK(memo.json == full.json);
        CHECK(memo.repeated == (b_stream == 0 ? 4 : 0));
    }
}

TEST_CASE("no memoisation with a per-block observer or with another stream running") {
    const hw::GpuSpec gpu = hw::resolve_gpu("h100");
    const auto app = workloads::application_from_specs({"apsp-minplus:n=100,block=16"});
    auto policy = scheduler::make_policy("most-room");
    {
        sim::Engine engine(gpu, app, *policy, "shared");
        RepeatCounter counter;
        std::ostringstream csv;
        sim::TimelineCsvWriter timeline(csv, "test");
        engine.add_observer(counter);
        engine.add_observer(timeline);
        engine.run();
        CHECK(counter.repeated == 0);
        CHECK(timeline.rows() == 7 * 49);  // every block of the 7 launches is written
    }
    {
        // Stream 1 runs a long kernel beside stream 0's launches: the GPU is never idle.
        auto two = workloads::application_from_specs({"apsp-minplus:n=100,block=16", "binomial-series:blocks=4,threads=64,stream=1"});
        const test::MemoOutcome full = test::run_memoised(gpu, two, "most-room", "shared", false);
        const test::MemoOutcome memo = test::run_memoised(gpu, two, "most-room", "shared", true);
        CHECK(memo.json == full.json);
    }
}
