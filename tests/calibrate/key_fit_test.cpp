// calibrate key: a latency floor recovered from simulator-generated rows; template substitution and located errors.
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "gpusched/calibrate/key_fit.h"
#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/support/input_error.h"
#include "gpusched/scheduler/registry.h"

using namespace gpusched;
using namespace gpusched::calibrate;

namespace {

std::string write_temp(const std::string& name, const std::string& text) {
    const std::string path = std::string(GPUSCHED_TEST_TMP) + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

}  // namespace

TEST_CASE("fit_key recovers term_latency_cycles from rows the simulator generated") {
    // One warp per SM (132 blocks of 32 threads) and 1 slot per term: a warp needs K slots at
    // C = 4 per cycle but K x L cycles of latency, so for L > 1/4 the time is K L / f + overheads,
    // strictly increasing in L: the RMS error has one minimum, at the true L = 37.5.
    const hw::GpuSpec gpu = hw::resolve_gpu("h100");
    std::vector<KeyMeasurement> rows;
    for (const int terms : {100, 400, 1000})
        rows.push_back({"binomial-series:blocks=132,threads=32,instr_per_term=1,terms=" + std::to_string(terms), 1, terms, ""});
    KeySimulator truth(gpu, scheduler::default_policy(), "shared", "term_latency_cycles", rows);
    for (std::size_t i = 0; i < rows.size(); ++i) rows[i].measured_us = truth.simulate_us(i, 37.5);
    KeySimulator sim(gpu, scheduler::default_policy(), "shared", "term_latency_cycles", rows);
    KeyFitOptions options;
    options.lo = 0;
    options.hi = 100;
    const KeyCalibration c = calibrate_key(sim, options, 400);
    CHECK(c.fit.value == doctest::Approx(37.5).epsilon(1e-3));
    CHECK(c.in_sample.max_abs < 0.01);
    CHECK(c.leave_one_out.count == 3);
    CHECK(c.leave_one_out.max_abs < 0.01);
    REQUIRE(c.extrapolation);
    CHECK(c.extrapolation->test == std::vector<std::size_t>{2});
    CHECK(c.extrapolation_fit.value == doctest::Approx(37.5).epsilon(1e-3));
}

TEST_CASE("read_key_measurements fills the template from each row; errors name file and line") {
    const std::string path = write_temp("key_rows.csv", "# comment\nrake,pts,kernel_ms\n2,64,0.5\n4,64,0.25\n");
    const auto rows = read_key_measurements(path, "streamcluster:points={pts},dims=4,rake={rake}", "kernel_ms", "rake");
    REQUIRE(rows.size() == 2);
    CHECK(rows[0].spec == "streamcluster:points=64,dims=4,rake=2");
    CHECK(rows[1].measured_us == doctest::Approx(250));
    CHECK(rows[1].group == 4);
    CHECK_THROWS_WITH_AS(read_key_measurements(path, "streamcluster:points={nope}", "kernel_ms", ""),
                         doctest::Contains("key_rows.csv:3: the header has no column 'nope'"), InputError);
    const std::string bad = write_temp("key_bad.csv", "rake,kernel_ms\n2,fast\n");
    CHECK_THROWS_WITH_AS(read_key_measurements(bad, "synthetic", "kernel_ms", ""),
                         doctest::Contains("key_bad.csv:2: column 'kernel_ms'"), InputError);
}

TEST_CASE("the key fit names a row's spec that does not parse by its row and the caller's name for the template") {
    // The library's default name is the key "kernel"; the command line passes its flag "--kernel".
    const hw::GpuSpec gpu = hw::resolve_gpu("h100");
    const std::vector<KeyMeasurement> rows = {{"no-such-kernel:terms=1", 1, 0, "runs.csv:2"}};
    CHECK_THROWS_WITH_AS(KeySimulator(gpu, scheduler::default_policy(), "shared", "terms", rows),
                         doctest::Contains("runs.csv:2 (kernel filled from this row): unknown kernel"), InputError);
    CHECK_THROWS_WITH_AS(KeySimulator(gpu, scheduler::default_policy(), "shared", "terms", rows, "--kernel"),
                         doctest::Contains("runs.csv:2 (--kernel filled from this row): unknown kernel"), InputError);
}
