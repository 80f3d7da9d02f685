// Errors in the language of the input: sweep rows, study files and workload files name their keys, never a flag.
#include <doctest/doctest.h>

#include <functional>
#include <sstream>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/support/input_error.h"
#include "gpusched/sweep/point_runner.h"
#include "gpusched/sweep/simulation.h"
#include "gpusched/sweep/sweep_runner.h"
#include "gpusched/workloads/workload_file.h"
#include "sweep/study_fixtures.h"

using namespace gpusched;

namespace {
std::string message_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const InputError& e) {
        return e.what();
    }
    return "no InputError";
}
std::string run(const sweep::Study& s) {
    std::ostringstream out;
    sweep::run_sweep(s, sweep::SweepOptions{}, out);
    return out.str();
}
}  // namespace

TEST_CASE("a sweep row reports the point's key and value, not a command-line flag") {
    // Point 0: c2075 takes at most 1024 threads per block. Point 1: c2075 has no measured dispatch
    // walk. Point 2: synthetic blocks have fixed durations, no per-warp work for the shared model.
    const auto s = test::study_from(R"(study: rows
workloads:
  syn: "synthetic:blocks=4,duration=1us"
fixed:
  gpu: c2075
points:
  - list:
      - {threads: 2048}
      - {threads: 64, policy: walk}
      - {threads: 64, exec: shared}
)");
    const std::string out = run(s);
    CHECK(out.find("launch 0 (synthetic): threads 2048: cannot launch on c2075: the maximum is 1024 threads per block") !=
          std::string::npos);
    CHECK(out.find("policy walk: GPU 'c2075' has no topology.dispatch_walk") != std::string::npos);
    CHECK(out.find("exec shared: launch 0 (synthetic) has no per-warp work") != std::string::npos);
    CHECK(out.find("--") == std::string::npos);
}

TEST_CASE("a study's unknown policy is reported at its parameter, without a flag") {
    const auto s = test::study_from(R"(study: t
workloads:
  w: "synthetic:blocks=4,threads=32,duration=1us"
points:
  - list: [{policy: fifo}]
)");
    CHECK(message_of([&] { sweep::check_study(s); })
              .starts_with("study.yaml: parameter 'policy': unknown policy 'fifo' (known: most-room"));
}

TEST_CASE("a workload file's errors name FILE:LINE and key, or the launch and key, never a flag") {
    // Line 4: a carveout is a keyword or a percentage 0..100.
    CHECK(message_of([] {
              (void)workloads::parse_workload(
                  "launches:\n  - kernel: synthetic\n    blocks: 4\n    carveout: 150\n    threads: 32\n    duration: 1us\n",
                  "w.yaml");
          }).starts_with("w.yaml:4: key 'launches[0].carveout': expected default, max-shared"));
    // Valid as a file, but 2048 threads per block exceed the h100's 1024: the launch and its key.
    const workloads::Application app = workloads::parse_workload(
        "launches:\n  - kernel: synthetic\n    name: big\n    blocks: 4\n    threads: 2048\n    duration: 1us\n", "w.yaml");
    CHECK_THROWS_WITH_AS(sweep::simulate_summary(hw::resolve_gpu("h100"), app, "most-room", "fixed"),
                         "launch 0 (big): threads 2048: cannot launch on h100: the maximum is 1024 threads per block",
                         InputError);
}
