// Calibration YAML: exact round trip, located errors for bad files, and merging keys into kernel specs.
#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <vector>

#include "gpusched/calibrate/calibration_file.h"
#include "gpusched/support/input_error.h"

using gpusched::InputError;
using namespace gpusched::calibrate;

namespace {

std::string error_of(const std::string& yaml) {
    try {
        (void)parse_calibration(yaml, "cal.yaml");
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

void check_error(const std::string& yaml, const std::string& part) {
    const std::string message = error_of(yaml);
    CHECK_MESSAGE(message.find(part) != std::string::npos, "message: '", message, "', expected: '", part, "'");
}

}  // namespace

TEST_CASE("a written calibration reads back to the same values, bit for bit") {
    Calibration c;
    c.kernel = "binomial-series";
    c.keys = {{"instr_per_term", 17.123456789012345}, {"term_latency_cycles", 0.1 + 0.2}};
    c.interval = IntervalFactor{2.718281828459045, 0.1 + 0.2};
    c.notes = {"fitted by a test"};
    std::ostringstream out;
    write_calibration(out, c);
    CHECK(out.str().rfind("# fitted by a test\nkernel: binomial-series\nkeys:\n", 0) == 0);
    const Calibration back = parse_calibration(out.str(), "cal.yaml");
    CHECK(back.kernel == c.kernel);
    REQUIRE(back.keys.size() == 2);
    CHECK(back.keys[0] == c.keys[0]);
    CHECK(back.keys[1].second == c.keys[1].second);
    REQUIRE(back.interval);
    CHECK(back.interval->f == c.interval->f);
    CHECK(back.interval->launch_us == c.interval->launch_us);
    c.interval->launch_us.reset();
    std::ostringstream f_only;
    write_calibration(f_only, c);
    CHECK(f_only.str().find("launch_us") == std::string::npos);
    CHECK(!parse_calibration(f_only.str(), "cal.yaml").interval->launch_us);
}

TEST_CASE("bad calibration files name the file, the line and the key") {
    check_error("kernel: binomial-series\nkeys:\n  instr_per_term: 3\n  bogus: 1\n", "cal.yaml:4: key 'keys.bogus'");
    check_error("kernel: binomial-series\nkeys:\n  instr_per_term: 3\n  bogus: 1\n", "term_latency_cycles");  // lists the kernel's keys
    check_error("kernel: binomial-series\nkeys:\n  instr_per_term: lots\n", "cal.yaml:3: key 'keys.instr_per_term'");
    check_error("kernel: binomial-series\nkeys:\n  instr_per_term: -1\n", "keys.instr_per_term");
    check_error("kernel: nope\nkeys:\n  x: 1\n", "cal.yaml:1: key 'kernel': unknown kernel");
    check_error("keys:\n  instr_per_term: 1\n", "'kernel'");
    check_error("kernel: apsp-minplus\ninterval:\n  f: 0\n", "cal.yaml:3: key 'interval.f'");
    check_error("kernel: apsp-minplus\n", "needs 'keys' or 'interval'");
    // A negative per-launch time predicted negative times: launch_us is 0..10^6.
    check_error("kernel: apsp-minplus\ninterval:\n  f: 2\n  launch_us: -3\n",
                "cal.yaml:4: key 'interval.launch_us': expected a number in [0, 1e+06], got '-3'");
    check_error("kernel: apsp-minplus\ninterval:\n  f: 2\n  launch_us: .inf\n", "cal.yaml:4: key 'interval.launch_us'");
    CHECK(error_of("kernel: apsp-minplus\ninterval:\n  f: 2\n  launch_us: 0\n").empty());
    check_error("kernel: apsp-minplus\ninterval:\n  f: 2\nextra: 1\n", "extra");
    check_error("kernel: [unclosed\n", "cal.yaml:");
    CHECK_THROWS_WITH_AS(load_calibration("/nonexistent/cal.yaml"), doctest::Contains("cannot read calibration file"), InputError);
}

TEST_CASE("apply_calibration adds only the keys a spec of that kernel does not give") {
    Calibration c;
    c.kernel = "binomial-series";
    c.keys = {{"instr_per_term", 17.5}, {"term_latency_cycles", 40}};
    CHECK(apply_calibration("binomial-series:blocks=2,threads=64", c) ==
          "binomial-series:blocks=2,threads=64,instr_per_term=17.5,term_latency_cycles=40");
    CHECK(apply_calibration("binomial-series:blocks=2,threads=64,instr_per_term=3", c) ==
          "binomial-series:blocks=2,threads=64,instr_per_term=3,term_latency_cycles=40");
    CHECK(apply_calibration("binomial-series", c) == "binomial-series:instr_per_term=17.5,term_latency_cycles=40");
    CHECK(apply_calibration("binomial-series:", c) == "binomial-series:instr_per_term=17.5,term_latency_cycles=40");
    CHECK(apply_calibration("synthetic:blocks=2,threads=64,duration=1us", c) == "synthetic:blocks=2,threads=64,duration=1us");
    CHECK(apply_calibration("binomial-series:instr_per_term=1,term_latency_cycles=2", c) ==
          "binomial-series:instr_per_term=1,term_latency_cycles=2");
}

TEST_CASE("a calibration value the generator refuses is reported at its line of the calibration file") {
    // terms is 1..10^12 for binomial-series: 0.5 passes the file's generic 0..10^12 bound but
    // not the generator's; the message named '--kernel' (or the spec) before, not the file.
    const Calibration c = parse_calibration("kernel: binomial-series\nkeys:\n  instr_per_term: 3\n  terms: 0.5\n",
                                            "cal.yaml");
    REQUIRE(c.key_where == std::vector<std::string>{"cal.yaml:3", "cal.yaml:4"});
    CHECK_THROWS_WITH_AS(apply_calibration("binomial-series:blocks=2,threads=64", c),
                         doctest::Contains("cal.yaml:4: key 'terms': expected an integer"), InputError);
    // A spec that gives terms itself never uses the file's value.
    CHECK(apply_calibration("binomial-series:blocks=2,threads=64,terms=7", c) ==
          "binomial-series:blocks=2,threads=64,terms=7,instr_per_term=3");
    // The spec's own mistakes are left to where the text is used (the text comes back as edited).
    CHECK(apply_calibration("binomial-series:blocks=0,threads=64,terms=7", c) ==
          "binomial-series:blocks=0,threads=64,terms=7,instr_per_term=3");
}

TEST_CASE("exact_number is the shortest text that reads back exactly") {
    CHECK(exact_number(10) == "10");
    CHECK(exact_number(0.1) == "0.1");
    CHECK(std::stod(exact_number(1.0 / 3)) == 1.0 / 3);
}
