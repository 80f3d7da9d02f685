// tune: spec key replacement, the simulated optimum of hand-derived cases, the block-size guideline.
#include <doctest/doctest.h>

#include <string>

#include "gpusched/calibrate/tune.h"
#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/scheduler/registry.h"
#include "gpusched/support/input_error.h"

using namespace gpusched;
using namespace gpusched::calibrate;

TEST_CASE("with_spec_key replaces a key's value or appends the key") {
    CHECK(with_spec_key("synthetic:blocks=2,threads=64", "threads", "128") == "synthetic:blocks=2,threads=128");
    CHECK(with_spec_key("synthetic:blocks=2,threads=64", "duration", "1us") ==
          "synthetic:blocks=2,threads=64,duration=1us");
    CHECK(with_spec_key("binomial-series", "threads", "32") == "binomial-series:threads=32");
    CHECK(with_spec_key("binomial-series:", "threads", "32") == "binomial-series:threads=32");
    CHECK(with_spec_key("sssp:graph=g.txt,streams=1,threads=256", "streams", "8") ==
          "sssp:graph=g.txt,streams=8,threads=256");
}

TEST_CASE("tune picks the hand-derived optimum: one wave of 264 blocks beats two of 265") {
    const hw::GpuSpec gpu = hw::resolve_gpu("h100");
    TuneRequest r;
    r.spec = "synthetic:blocks=1,threads=1024,duration=60us";
    r.key = "blocks";
    r.values = {"265", "264"};
    r.policy = scheduler::default_policy();
    const TuneResult t = tune(gpu, r);
    REQUIRE(t.candidates.size() == 2);
    // h100: 2 blocks of 1024 threads per SM, 264 in the first wave. The launch is ready at 1418 ns;
    // the first block on an idle SM starts D = 182 ns after dispatch (1600), the second
    // a + b w = 141.82 ns later (1741.82): 264 blocks end at 1741.82 + 60000 = 61741.82 ns. Block
    // 264 waits for a slot: 61600 + 182 + 60000 = 121782 ns (tests/cli/cli_tests.cmake, simulate_json).
    CHECK(*t.candidates[0].makespan_us == doctest::Approx(121.782));
    CHECK(*t.candidates[1].makespan_us == doctest::Approx(61.74182));
    REQUIRE(t.best);
    CHECK(*t.best == 1);
    CHECK(t.candidates[1].spec == "synthetic:blocks=264,threads=1024,duration=60us");
    CHECK(t.candidates[1].blocks_per_sm == 2);
}

TEST_CASE("tune: candidates that cannot run are reported, not picked; total threads fixes the grid") {
    const hw::GpuSpec gpu = hw::resolve_gpu("h100");
    TuneRequest r;
    r.spec = "synthetic:threads=32,duration=10us";
    r.key = "threads";
    r.values = {"32", "64", "128", "2048"};
    r.policy = scheduler::default_policy();
    r.total_threads = 8448;
    const TuneResult t = tune(gpu, r);
    CHECK(t.candidates[0].spec == "synthetic:threads=32,duration=10us,blocks=264");
    CHECK(t.candidates[3].spec == "synthetic:threads=2048,duration=10us,blocks=5");
    CHECK_FALSE(t.candidates[3].makespan_us);
    CHECK(t.candidates[3].error.find("1024") != std::string::npos);
    REQUIRE(t.best);
    CHECK(*t.best != 3);
    // Occupancy: 32 threads -> 32 blocks x 1 warp = 50%; 64 and 128 -> 64 warps = 100%. The
    // characterisation paper's rule picks the smallest at 100%: 64.
    CHECK(t.candidates[0].occupancy == doctest::Approx(0.5));
    const auto g = smallest_max_occupancy(t);
    REQUIRE(g);
    CHECK(t.candidates[*g].value == "64");
}

TEST_CASE("tune is deterministic") {
    const hw::GpuSpec gpu = hw::resolve_gpu("h100");
    TuneRequest r;
    r.spec = "binomial-series:blocks=528,threads=32,terms=100";
    r.key = "threads";
    r.values = {"32", "256", "1024"};
    r.policy = scheduler::default_policy();
    const TuneResult a = tune(gpu, r), b = tune(gpu, r);
    for (std::size_t i = 0; i < a.candidates.size(); ++i) CHECK(*a.candidates[i].makespan_us == *b.candidates[i].makespan_us);
    CHECK(a.best == b.best);
}

TEST_CASE("tune names a spec that does not parse by the caller's name for it") {
    // The libraries know the spec by the key "kernel"; the command line passes its flag "--kernel".
    const hw::GpuSpec gpu = hw::resolve_gpu("h100");
    TuneRequest r;
    r.spec = "no-such-kernel:threads=32";
    r.key = "threads";
    r.values = {"32"};
    r.policy = scheduler::default_policy();
    const auto message = [&] {
        try {
            (void)tune(gpu, r);
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK(message().rfind("kernel: unknown kernel 'no-such-kernel'", 0) == 0);
    r.spec_where = "--kernel";
    CHECK(message().rfind("--kernel: unknown kernel 'no-such-kernel'", 0) == 0);
}
