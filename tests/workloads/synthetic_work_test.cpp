// Synthetic work: every duration form, laziness at 2^40 blocks, determinism, describe().
#include <doctest/doctest.h>

#include <chrono>
#include <set>

#include "gpusched/support/input_error.h"
#include "gpusched/workloads/kernel_spec.h"
#include "gpusched/workloads/synthetic_work.h"

using namespace gpusched;
using namespace gpusched::workloads;

namespace {

constexpr Time us = 1'000'000;

KernelLaunch spec(const std::string& text) { return parse_kernel_spec(text, "--kernel"); }

}  // namespace

TEST_CASE("constant duration") {
    const KernelLaunch k = spec("synthetic:blocks=265,threads=1024,duration=50us");
    CHECK(k.name == "synthetic");
    CHECK(k.blocks() == 265);
    CHECK(k.threads_per_block() == 1024);
    CHECK(k.work->duration(0) == 50 * us);
    CHECK(k.work->duration(264) == 50 * us);
    CHECK(k.work->describe() == "constant 50us");
    CHECK(k.work->active_warps(3, 32) == 32);
}

TEST_CASE("durations in every unit, described in the largest exact unit") {
    CHECK(spec("synthetic:blocks=1,threads=32,duration=1.5ms").work->duration(0) == 1500 * us);
    CHECK(spec("synthetic:blocks=1,threads=32,duration=1.5ms").work->describe() == "constant 1500us");
    CHECK(spec("synthetic:blocks=1,threads=32,duration=200ns").work->duration(0) == 200'000);
    CHECK(spec("synthetic:blocks=1,threads=32,duration=3000ps").work->describe() == "constant 3ns");
    CHECK(spec("synthetic:blocks=1,threads=32,duration=1234ps").work->describe() == "constant 1234ps");
    CHECK(spec("synthetic:blocks=1,threads=32,duration=2s").work->describe() == "constant 2s");
    CHECK(spec("synthetic:blocks=1,threads=32,duration=0us").work->duration(0) == 0);
    CHECK(format_duration(0) == "0us");
}

TEST_CASE("pattern durations cycle by block index") {
    const KernelLaunch k = spec("synthetic:blocks=7,threads=64,duration=10us/20us/40us");
    const Time expected[] = {10 * us, 20 * us, 40 * us, 10 * us, 20 * us, 40 * us, 10 * us};
    for (std::uint64_t b = 0; b < 7; ++b) CHECK(k.work->duration(b) == expected[b]);
    CHECK(k.work->describe() == "pattern 10us/20us/40us");
    CHECK(k.work->duration((std::uint64_t{1} << 40) - 1) == expected[((std::uint64_t{1} << 40) - 1) % 3]);
}

TEST_CASE("uniform random durations are seeded, in range, deterministic and fixed across platforms") {
    const KernelLaunch a = spec("synthetic:blocks=1000,threads=64,duration=10us~50us,seed=7");
    const KernelLaunch b = spec("synthetic:blocks=1000,threads=64,duration=10us~50us,seed=7");
    const KernelLaunch c = spec("synthetic:blocks=1000,threads=64,duration=10us~50us,seed=8");
    CHECK(a.work->describe() == "uniform 10us~50us (seed 7)");
    CHECK(spec("synthetic:blocks=2,threads=64,duration=10us~50us").work->describe() == "uniform 10us~50us (seed 1)");
    std::set<Time> distinct;
    int differs = 0;
    for (std::uint64_t i = 0; i < 1000; ++i) {
        const Time d = a.work->duration(i);
        CHECK(d >= 10 * us);
        CHECK(d <= 50 * us);
        CHECK(d == b.work->duration(i));
        CHECK(d == a.work->duration(i));
        differs += d != c.work->duration(i);
        distinct.insert(d);
    }
    CHECK(distinct.size() > 990);
    CHECK(differs > 990);
    // The exact formula, pinned: lo + splitmix64(splitmix64(seed) + block) mod (hi - lo + 1).
    CHECK(splitmix64(0) == 0xe220a8397b1dcdafULL);
    CHECK(a.work->duration(0) == 10 * us + splitmix64(splitmix64(7) + 0) % (40 * us + 1));
    CHECK(uniform_duration(5, 5, 123, 456) == 5);
    const Time max = Time{1} << 63;
    CHECK(uniform_duration(0, max, 1, 2) <= max);
}

TEST_CASE("a 2^40-block launch is lazy: constructs at once and answers the last block") {
    const auto start = std::chrono::steady_clock::now();
    const KernelLaunch k = spec("synthetic:blocks=1099511627776,threads=256,duration=10us~50us,seed=3");
    const std::uint64_t last = (std::uint64_t{1} << 40) - 1;
    CHECK(k.blocks() == last + 1);
    CHECK(k.grid.x <= 2147483647u);
    CHECK(k.grid.y <= 2147483647u);
    const Time d = k.work->duration(last);
    CHECK(d >= 10 * us);
    CHECK(d <= 50 * us);
    CHECK(d == k.work->duration(last));
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(2));

    const KernelLaunch billion = spec("synthetic:blocks=1000000000,threads=128,duration=5us");
    CHECK(billion.blocks() == 1'000'000'000);
    CHECK(billion.work->duration(999'999'999) == 5 * us);
}

TEST_CASE("active_warps applies to every block and is checked against the block's warps") {
    const KernelLaunch k = spec("synthetic:blocks=4,threads=256,duration=5us,active_warps=3");
    CHECK(k.work->active_warps(0, 8) == 3);
    CHECK(k.work->active_warps(3, 8) == 3);
    CHECK(k.work->describe() == "constant 5us, 3 active warps");
    CHECK_THROWS_WITH_AS((void)k.work->active_warps(0, 2),
                         "--kernel: key 'active_warps': 3 exceeds the 2 warps of each block on this GPU", InputError);
    // The same check before any block runs (the engine asks once per launch, whatever the
    // execution model): 64 threads are 2 warps of 32, so 3 active warps cannot be.
    const KernelLaunch two_warps = spec("synthetic:blocks=2,threads=64,duration=1us,active_warps=3");
    CHECK_THROWS_WITH_AS(two_warps.work->check_block_warps(2),
                         "--kernel: key 'active_warps': 3 exceeds the 2 warps of each block on this GPU", InputError);
    CHECK_NOTHROW(two_warps.work->check_block_warps(3));
    CHECK_NOTHROW(spec("synthetic:blocks=2,threads=64,duration=1us").work->check_block_warps(1));
    CHECK_THROWS_WITH_AS(spec("synthetic:blocks=4,threads=2,duration=5us,active_warps=3"),
                         doctest::Contains("key 'active_warps': expected an integer in [1, 2]"), InputError);
    CHECK_THROWS_WITH_AS(spec("synthetic:blocks=4,threads=64,duration=5us,active_warps=0"),
                         doctest::Contains("key 'active_warps'"), InputError);
}

TEST_CASE("bad duration values name the key") {
    const auto bad = [](const std::string& value, const std::string& message) {
        CHECK_THROWS_WITH_AS(spec("synthetic:blocks=1,threads=32,duration=" + value), doctest::Contains(message.c_str()),
                             InputError);
    };
    bad("50", "--kernel: key 'duration': expected a duration such as 50us");
    bad("fast", "key 'duration'");
    bad("-5us", "key 'duration'");
    bad("0.5ps", "finer than one picosecond");
    bad("50us~10us", "--kernel: key 'duration': expected LO~HI with LO <= HI, got '50us~10us'");
    bad("10us~", "key 'duration' (upper bound of LO~HI)");
    bad("~10us", "key 'duration' (lower bound of LO~HI)");
    bad("10us~20us~30us", "key 'duration' (upper bound of LO~HI)");
    bad("10us//20us", "key 'duration' (item 2 of the pattern D/D/...)");
    bad("10us/", "key 'duration' (item 2 of the pattern D/D/...)");
    // Durations stay below 2^63 ps (about 106 days), the range of simulated time.
    bad("9223372036854775808ps", "--kernel: key 'duration': '9223372036854775808ps' reaches 2^63 ps (about 106 days)");
    bad("9223372.036854775808s", "reaches 2^63 ps");
    bad("99999999999999999999999us", "reaches 2^63 ps");
    bad("1us~107d", "expected a duration such as");  // not a unit: still the old message
    CHECK(spec("synthetic:blocks=1,threads=32,duration=9223372036854775807ps").work->duration(0) ==
          Time{9223372036854775807});
    CHECK_THROWS_WITH_AS(spec("synthetic:blocks=1,threads=32,duration=5us,seed=3"),
                         "--kernel: key 'seed': applies only to a random duration LO~HI", InputError);
    CHECK_THROWS_WITH_AS(spec("synthetic:blocks=1,threads=32,duration=5us~6us,seed=-1"),
                         doctest::Contains("key 'seed': expected an integer in [0, 9223372036854775807]"), InputError);
    CHECK_THROWS_WITH_AS(spec("synthetic:blocks=1,threads=32"),
                         "--kernel: kernel 'synthetic': required key 'duration' is missing", InputError);
}
