// KeyError: library errors about one key's value, renamed by each caller (flag, study parameter); occupancy and GPU lookup use it.
#include <doctest/doctest.h>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/hw/occupancy.h"
#include "gpusched/support/key_error.h"

using namespace gpusched;

TEST_CASE("a KeyError reads KEY[ VALUE]: DETAIL and renames its key only") {
    const KeyError plain("threads", "expected at least 1 thread per block, got 0");
    CHECK(std::string(plain.what()) == "threads: expected at least 1 thread per block, got 0");
    CHECK(std::string(plain.renamed("--threads").what()) == "--threads: expected at least 1 thread per block, got 0");
    const KeyError valued("policy", "walk", "GPU 'a100' has no topology.dispatch_walk");
    CHECK(std::string(valued.what()) == "policy walk: GPU 'a100' has no topology.dispatch_walk");
    CHECK(std::string(valued.renamed("--policy").what()) == "--policy walk: GPU 'a100' has no topology.dispatch_walk");
    CHECK(std::string(valued.renamed("").what()) == "walk: GPU 'a100' has no topology.dispatch_walk");
    CHECK(std::string(plain.renamed("").what()) == "expected at least 1 thread per block, got 0");
    CHECK(valued.renamed("--policy").detail() == valued.detail());
}

TEST_CASE("naming_keys renames listed keys and lets everything else through unchanged") {
    const KeyNames flags = {{"policy", "--policy"}};
    CHECK(naming_keys(flags, [] { return 7; }) == 7);
    CHECK_THROWS_WITH_AS(naming_keys(flags, [] { throw KeyError("policy", "unknown policy 'x'"); }),
                         "--policy: unknown policy 'x'", KeyError);
    CHECK_THROWS_WITH_AS(naming_keys(flags, [] { throw KeyError("threads", "bad"); }), "threads: bad", KeyError);
    CHECK_THROWS_WITH_AS(naming_keys(flags, [] { throw InputError("file.yaml:3: bad"); }), "file.yaml:3: bad", InputError);
    CHECK_THROWS_AS(naming_keys(flags, [] { throw InconsistentSpecError("x"); }), InconsistentSpecError);
}

TEST_CASE("occupancy and GPU lookup errors name the request's key, not a flag") {
    const hw::GpuSpec h100 = hw::resolve_gpu("h100");
    const auto error_of = [&](const hw::OccupancyRequest& r) {
        try {
            (void)hw::compute_occupancy(h100, r);
        } catch (const KeyError& e) {
            return e.key() + " | " + e.what();
        }
        return std::string("no KeyError");
    };
    hw::OccupancyRequest r;
    CHECK(error_of(r) == "threads | threads: expected at least 1 thread per block, got 0");
    r.threads_per_block = 2048;
    // The h100 preset: max_threads_per_block 1024, max_registers_per_thread 255.
    CHECK(error_of(r) == "threads | threads 2048: cannot launch on h100: the maximum is 1024 threads per block");
    r.threads_per_block = 32;
    r.registers_per_thread = 300;
    CHECK(error_of(r) == "regs | regs 300: cannot launch on h100: the maximum is 255 registers per thread");
    r.registers_per_thread = -1;
    CHECK(error_of(r) == "regs | regs: expected 0 or more registers per thread, got -1");
    r.registers_per_thread = 0;
    r.barriers_per_block = -1;
    CHECK(error_of(r) == "barriers | barriers: expected 0 or more barriers per block");
    try {
        (void)hw::resolve_gpu("h1000");
        FAIL("h1000 is no preset");
    } catch (const KeyError& e) {
        CHECK(e.key() == "gpu");
        CHECK(std::string(e.what()).starts_with("gpu: unknown GPU 'h1000' (presets: "));
    }
}
