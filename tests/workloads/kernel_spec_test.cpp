// Kernel specs: the one-line grammar, generic keys, the generator registry, and every error.
#include <doctest/doctest.h>

#include "support/spec_checks.h"

#include "gpusched/support/input_error.h"
#include "gpusched/workloads/generator_registry.h"
#include "gpusched/workloads/kernel_spec.h"

using namespace gpusched;
using namespace gpusched::workloads;
using test::check_error;
using test::spec;
using test::check_error_contains;

namespace {

const std::string base = "synthetic:duration=1us,";

}  // namespace

TEST_CASE("the registry lists synthetic with a description, key help and a working example") {
    REQUIRE(!kernel_generators().empty());
    const KernelGeneratorInfo* synthetic = find_kernel_generator("synthetic");
    REQUIRE(synthetic != nullptr);
    CHECK(!synthetic->description.empty());
    CHECK(synthetic->keys_help() == "duration=D | D/D/... | LO~HI seed=N active_warps=W");
    CHECK(find_kernel_generator("nope") == nullptr);
    for (const auto& generator : kernel_generators()) {
        CAPTURE(generator.name);
        CHECK(!generator.description.empty());
        CHECK_NOTHROW(spec(generator.example));
    }
    CHECK(generic_spec_keys().size() == 13);
}

TEST_CASE("generic keys fill the launch; defaults otherwise") {
    const KernelLaunch d = spec(base + "blocks=3,threads=96");
    CHECK(d.grid == Dim3{3, 1, 1});
    CHECK(d.block == Dim3{96, 1, 1});
    CHECK(d.registers_per_thread == 0);
    CHECK(d.static_shared_bytes == 0);
    CHECK(d.dynamic_shared_bytes == 0);
    CHECK(d.barriers_per_block == 1);
    CHECK(d.carveout.kind == hw::Carveout::Kind::device_default);
    CHECK(d.stream == 0);
    CHECK(d.name == "synthetic");

    const KernelLaunch k = spec(" synthetic : grid=4x3x2 , block=16x8x2 , regs=64 , smem=49152 , static_smem=1024 ,"
                                " barriers=2 , carveout=max-shared , stream=1023 , name=gemm_tile.v2 , duration=3us ");
    CHECK(k.grid == Dim3{4, 3, 2});
    CHECK(k.blocks() == 24);
    CHECK(k.block == Dim3{16, 8, 2});
    CHECK(k.threads_per_block() == 256);
    CHECK(k.registers_per_thread == 64);
    CHECK(k.dynamic_shared_bytes == 49152);
    CHECK(k.static_shared_bytes == 1024);
    CHECK(k.barriers_per_block == 2);
    CHECK(k.carveout.kind == hw::Carveout::Kind::max_shared);
    CHECK(k.stream == 1023);
    CHECK(k.name == "gemm_tile.v2");
    const hw::OccupancyRequest r = k.occupancy_request();
    CHECK(r.threads_per_block == 256);
    CHECK(r.registers_per_thread == 64);

    CHECK(spec(base + "blocks=1,threads=1,carveout=37").carveout.percent == 37);
    CHECK(spec(base + "blocks=1,block=32x4").block == Dim3{32, 4, 1});
    CHECK(spec(base + "blocks=1,threads=1048576").threads_per_block() == 1048576);
}

TEST_CASE("blocks beyond one grid dimension are factored into two") {
    CHECK(grid_for_blocks(2147483647) == Dim3{2147483647, 1, 1});
    CHECK(grid_for_blocks(2147483648) == Dim3{1073741824, 2, 1});
    CHECK(grid_for_blocks(std::uint64_t{1} << 40) == Dim3{1u << 30, 1u << 10, 1});
    const auto odd = grid_for_blocks(3ull * 5 * 7 * 2147483647ull);
    REQUIRE(odd.has_value());
    CHECK(odd->count() == 3ull * 5 * 7 * 2147483647ull);
    CHECK_FALSE(grid_for_blocks(2ull * 2147483659ull).has_value());  // 2147483659 is prime
    CHECK_FALSE(grid_for_blocks(0).has_value());
    check_error(base + "threads=1,blocks=4294967318",
                "--kernel: key 'blocks': 4294967318 blocks cannot form a grid with each dimension at most 2147483647 "
                "(a prime factor is larger); choose another count");
}

TEST_CASE("unknown kernel names list the known ones") {
    const std::string known = "(known kernels: synthetic, apsp-minplus, apsp-fw, binomial-series, spmv, sssp, streamcluster, kernel)";
    check_error("apsp:n=5", "--kernel: unknown kernel 'apsp' " + known);
    check_error("bogus", "--kernel: unknown kernel 'bogus' " + known);
    check_error_contains(":blocks=1", "--kernel: expected NAME or NAME:key=value,key=value,...");
    check_error_contains("", "--kernel: expected NAME");
}

TEST_CASE("unknown, duplicate, conflicting and malformed keys") {
    check_error(base + "blocks=1,threads=1,colour=red",
                "--kernel: key 'colour': unknown key for kernel 'synthetic' (allowed: threads, block, blocks, grid, regs, "
                "smem, static_smem, barriers, carveout, stream, name, cluster, cluster_nonportable, duration, seed, active_warps)");
    check_error(base + "blocks=1,threads=1,blocks=2", "--kernel: key 'blocks' is given twice");
    check_error(base + "blocks=1,threads=1,block=2", "--kernel: key 'block': give either 'threads' or 'block', not both");
    check_error(base + "blocks=1,threads=1,grid=2", "--kernel: key 'grid': give either 'blocks' or 'grid', not both");
    check_error(base + "blocks=1,,threads=1", "--kernel: empty item in kernel spec 'synthetic:duration=1us,blocks=1,,threads=1' (expected key=value between commas)");
    check_error(base + "blocks=1,threads", "--kernel: key 'threads': expected key=value");
    check_error(base + "blocks=1,threads=", "--kernel: key 'threads': empty value");
    check_error(base + "blocks=1,=5", "--kernel: expected key=value, got '=5'");
    check_error("synthetic:duration=1us,threads=32", "--kernel: kernel 'synthetic': required key 'blocks' (or 'grid') is missing");
    check_error("synthetic:duration=1us,blocks=32", "--kernel: kernel 'synthetic': required key 'threads' (or 'block') is missing");
    check_error_contains("synthetic:blocks=1,threads=1,duration=1us\t", "found byte 0x09");
    check_error("synthetic:blocks=1,threads=1,duration=1us\n", "--kernel: kernel spec must be printable ASCII; found byte 0x0a at character 42");
    check_error_contains("synthetic:name=\xc3\xa9", "found byte 0xc3");
    check_error_contains(std::string(70000, 'a'), "--kernel: kernel spec is 70000 characters long; at most 65536");
}

TEST_CASE("value ranges and strict integers") {
    const auto range = [](const std::string& item, const std::string& message) {
        check_error_contains(base + item, message);
    };
    range("blocks=1,threads=0", "--kernel: key 'threads': expected an integer in [1, 1048576], got '0'");
    range("blocks=1,threads=1048577", "key 'threads': expected an integer in [1, 1048576]");
    range("blocks=1,threads=12abc", "key 'threads': expected an integer in [1, 1048576], got '12abc'");
    range("blocks=1,threads=0x10", "key 'threads'");
    range("blocks=1,threads=1.5", "key 'threads'");
    range("blocks=0,threads=1", "--kernel: key 'blocks': expected an integer in [1, 1099511627776], got '0'");
    range("blocks=1099511627777,threads=1", "key 'blocks': expected an integer in [1, 1099511627776]");
    range("blocks=99999999999999999999999,threads=1", "key 'blocks'");
    range("blocks=1,threads=1,regs=-1", "key 'regs': expected an integer in [0, 65536], got '-1'");
    range("blocks=1,threads=1,regs=65537", "key 'regs'");
    range("blocks=1,threads=1,smem=1099511627777", "key 'smem': expected an integer in [0, 1099511627776]");
    range("blocks=1,threads=1,static_smem=-4", "key 'static_smem'");
    range("blocks=1,threads=1,barriers=-1", "key 'barriers': expected an integer in [0, 65536]");
    range("blocks=1,threads=1,stream=1024", "key 'stream': expected an integer in [0, 1023], got '1024'");
    range("blocks=1,threads=1,carveout=101",
          "--kernel: key 'carveout': expected default, max-shared, max-l1, equal or a percentage 0..100, got '101'");
    range("blocks=1,threads=1,carveout=most", "key 'carveout'");
    range("blocks=1,threads=1,name=has space", "key 'name': expected 1-64 characters from letters, digits and -_.+/#:()[], got 'has space'");
    range("blocks=1,threads=1,name=" + std::string(65, 'n'), "key 'name'");
    range("blocks=1,block=1024x1025", "--kernel: key 'block': expected X, XxY or XxYxZ with each factor in [1, 1048576] and the product at most 1048576, got '1024x1025'");
    range("blocks=1,block=0x4", "key 'block'");
    range("blocks=1,block=4x", "key 'block'");
    range("blocks=1,block=2x2x2x2", "key 'block'");
    range("blocks=1,block=16X16", "key 'block'");
    range("grid=2147483648,threads=1", "key 'grid': expected X, XxY or XxYxZ with each factor in [1, 2147483647]");
    range("grid=1048576x1048577,threads=1", "key 'grid'");
    CHECK(spec(base + "grid=1048576x1048576,threads=1").blocks() == (std::uint64_t{1} << 40));
}

TEST_CASE("application_from_specs: one launch per spec, in order; messages say which spec") {
    const Application app = application_from_specs(
        {"synthetic:blocks=2,threads=32,duration=1us", "synthetic:blocks=3,threads=64,duration=2us,stream=1,name=b"});
    REQUIRE(app.launches.size() == 2);
    CHECK(app.launches[0].blocks() == 2);
    CHECK(app.launches[1].name == "b");
    CHECK(app.launches[1].stream == 1);
    CHECK(app.description == "synthetic:blocks=2,threads=32,duration=1us synthetic:blocks=3,threads=64,duration=2us,stream=1,name=b");
    CHECK(app.stream(1).priority == StreamPriority::normal);
    CHECK_THROWS_WITH_AS(application_from_specs({"synthetic:blocks=2,threads=32,duration=1us", "synthetic:blocks=x"}, "--kernel"),
                         doctest::Contains("--kernel #2: key 'blocks'"), InputError);
    CHECK_THROWS_WITH_AS(application_from_specs({"synthetic:blocks=x"}, "--kernel"), doctest::Contains("--kernel: key 'blocks'"),
                         InputError);
    CHECK_THROWS_WITH_AS(application_from_specs({}, "--kernel"), doctest::Contains("--kernel: no kernel spec given"), InputError);
}

TEST_CASE("file:line locations pass through") {
    CHECK_THROWS_WITH_AS(parse_kernel_spec("synthetic:blocks=1,threads=1,duration=5", "study.yaml:12"),
                         doctest::Contains("study.yaml:12: key 'duration'"), InputError);
}
