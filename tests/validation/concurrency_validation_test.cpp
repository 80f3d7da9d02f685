// The concurrency section: the H100's concurrent-kernel cases replayed within today's accuracy, and how a case is issued.
#include <doctest/doctest.h>

#include <cmath>
#include <sstream>

#include "gpusched/hw/gpu_spec_io.h"
#include "experiments/concurrency/view.h"

using namespace gpusched;

namespace {

const std::string kDir = std::string(GPUSCHED_SOURCE_DIR) + "/validation/data/h100/concurrency";

}  // namespace

TEST_CASE("concurrency: every measured launch's start and end within 2% of its case's span on the h100") {
    // Today's accuracy (docs/validation.md "Concurrent kernels and stream priorities"): worst 1.45%
    // (first1024_then256's second kernel, 1.4 us early: the host issue is modelled as one API call
    // per launch). Issue 21's target is 5%; this holds the 2% the model reaches.
    const auto cases = validation::validate_concurrency(kDir, hw::resolve_gpu("h100"), "walk");
    REQUIRE(cases.size() == 14);
    std::size_t launches = 0;
    for (const auto& c : cases)
        for (std::size_t k = 0; k < c.launches.size(); ++k) {
            CAPTURE(c.name);
            CAPTURE(k);
            CHECK(std::abs(c.start_error_percent(k)) <= 2.0);
            CHECK(std::abs(c.end_error_percent(k)) <= 2.0);
            ++launches;
        }
    CHECK(launches == 34);
    // The backfill stop: the priority -5 kernel of 512-thread blocks starts when the first
    // low-priority blocks end (50.46 us measured), not after the low kernel's full dispatch and
    // fourth wave (~201 us, as at equal priority).
    const auto& hp = cases.front();
    REQUIRE(hp.name == "hp_bigger_blocks");
    CHECK(hp.launches[1].priority == -5);
    CHECK(hp.launches[1].measured_start_us == doctest::Approx(50.464));
    CHECK(std::abs(hp.launches[1].simulated_start_us - 50.464) < 0.5);
}

TEST_CASE("concurrency: launch k is issued after k host API calls and the host waits before it, on its own stream") {
    // Two launches of 2 blocks; launch 1 waited 10 us: its stream first waits 1 x 3466 ns (the
    // h100's host_launch_interval_ns) + 10 us = 13.466 us; launch 0 is issued at once.
    validation::MeasuredTimeline t;
    t.path = "t.csv";
    t.blocks = {{0, 0, 0, 0, 1'000'000}, {0, 1, 1, 0, 2'000'000}, {1, 0, 0, 5'000'000, 8'000'000},
                {1, 1, 1, 5'000'000, 9'000'000}};  // times in ps, as the timeline reader gives them
    std::vector<validation::ConcurrencyLaunch> launches(2);
    for (std::uint64_t k = 0; k < 2; ++k) {
        launches[k].launch = k;
        launches[k].kernel = k == 0 ? "a" : "b";
        launches[k].stream = static_cast<int>(k);
        launches[k].blocks = 2;
    }
    launches[0].threads = 256;
    launches[1].threads = 512;
    launches[1].priority = -5;
    launches[1].smem_bytes = 1024;
    launches[1].host_wait_us = 10;
    const auto app = validation::concurrency_application(launches, t, hw::resolve_gpu("h100"));
    REQUIRE(app.launches.size() == 2);
    CHECK(app.launches[1].threads_per_block() == 512);
    CHECK(app.launches[1].dynamic_shared_bytes == 1024);
    CHECK(app.launches[1].work->duration(1) == 4'000'000);  // 9 us - 5 us: the measured duration
    CHECK(app.stream(1).priority == workloads::StreamPriority::cuda(-5));
    REQUIRE(app.operations.size() == 3);  // a; delay, b
    CHECK(app.operations[0].launch == 0);
    CHECK(app.operations[1].kind == workloads::Operation::Kind::delay);
    CHECK(app.operations[1].stream == 1);
    CHECK(app.operations[1].delay == 13'466'000);
    CHECK(app.operations[2].launch == 1);
}

TEST_CASE("concurrency: the text view's bottom line") {
    validation::ConcurrencyView view(validation::validate_concurrency(kDir, hw::resolve_gpu("h100"), "walk"), "DIR", "h100",
                                     "walk");
    std::ostringstream out;
    view.print_text(out);
    CHECK(out.str().find("14 cases, 34 launches: 34 with start and end within 5% of their case's span (worst 1.45%)") !=
          std::string::npos);
    nlohmann::ordered_json j;
    view.add_json(j);
    CHECK(j["concurrency"]["within_5_percent"] == 34);
}
