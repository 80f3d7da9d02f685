// The host-speed what-if: CPU times divided by the speed, the GPU unchanged; the simulation decides anew what the CPU waits for.
#include <doctest/doctest.h>

#include <limits>

#include "gpusched/support/input_error.h"
#include "gpusched/workloads/host_speed.h"
#include "support/sim_fixtures.h"

namespace gpusched {

namespace {

constexpr Time kNs = 1000;
constexpr Time kUs = 1'000'000;

/// Two one-block 10 us kernels on stream 0, each launched after a `gap` of host work (cpu 2 us).
workloads::Application two_launches(Time gap) {
    workloads::Application app = test::app_of({test::launch(1, 32, 10 * kUs), test::launch(1, 32, 10 * kUs)});
    app.operations = app.issue_order();
    app.host.push_back({"main", {test::host_launch(0, gap, 2 * kUs), test::host_launch(1, gap, 2 * kUs)}, ""});
    return app;
}

}  // namespace

TEST_CASE("host speed: gaps and CPU times divided, rounded to the picosecond; host_work sums them") {
    auto app = two_launches(30 * kUs);
    CHECK(workloads::host_work(app) == 64 * kUs);  // 2 x (30 + 2)
    workloads::scale_host_speed(app, 3.0, "--host-speed");
    CHECK(app.host[0].calls[0].gap == 10 * kUs);
    CHECK(app.host[0].calls[0].cpu == 666'667);  // 2 us / 3 = 666,666.67 ps, to the nearest
    CHECK(workloads::host_work(app) == 2 * (10 * kUs + 666'667));
}

TEST_CASE("host speed: a host-bound run follows the CPU, a GPU-bound one does not") {
    // A launch submits as its call returns. Host-bound (gap 30 us): launch 0's call 30..32 us, its kernel
    // 32.5..42.5; launch 1's call 62..64 us, its kernel 64.5..74.5. At speed 2 (gap 15, cpu 1) the calls
    // are 15..16 and 31..32 us: kernels 16.5..26.5 and 32.5..42.5. The GPU's 10 us kernels are the same;
    // only when they can start moved.
    CHECK(test::run(test::host_timeline_gpu(), two_launches(30 * kUs), "most-room").makespan == 74500 * kNs);
    auto faster = two_launches(30 * kUs);
    workloads::scale_host_speed(faster, 2.0, "--host-speed");
    CHECK(test::run(test::host_timeline_gpu(), faster, "most-room").makespan == 42500 * kNs);
    // GPU-bound (gap 1 us): launch 0's call 1..3 us -> kernel 3.5..13.5; launch 1's call 4..6 us waits for
    // its stream -> 14.0..24.0. Twice as slow a host (gap 2, cpu 4: calls 2..6 and 8..12 us) delays only
    // the first kernel, by 3 us (6.5..16.5, then 17.0..27.0): 24 -> 27 us, not twice.
    CHECK(test::run(test::host_timeline_gpu(), two_launches(1 * kUs), "most-room").makespan == 24000 * kNs);
    auto slower = two_launches(1 * kUs);
    workloads::scale_host_speed(slower, 0.5, "--host-speed");
    CHECK(test::run(test::host_timeline_gpu(), slower, "most-room").makespan == 27000 * kNs);
}

TEST_CASE("host speed: a speed out of range, not a number, or no host timeline is refused naming the key") {
    for (const double bad : {0.0, -1.0, 0.005, 101.0, std::numeric_limits<double>::quiet_NaN(),
                             std::numeric_limits<double>::infinity()}) {
        auto app = two_launches(1 * kUs);
        CAPTURE(bad);
        CHECK_THROWS_WITH_AS(workloads::scale_host_speed(app, bad, "--host-speed"), doctest::Contains("--host-speed: expected a speed in [0.01, 100]"), InputError);
        CHECK(app.host[0].calls[0].gap == 1 * kUs);  // untouched
    }
    auto no_host = test::app_of({test::launch(1, 32, 10 * kUs)});
    CHECK_THROWS_WITH_AS(workloads::scale_host_speed(no_host, 2.0, "--host-speed"), doctest::Contains("no host timeline"), InputError);
}

}  // namespace gpusched
