// Workload YAML files: the documented example, every schema error with its line, and parity with specs.
#include <doctest/doctest.h>

#include "gpusched/support/input_error.h"
#include "gpusched/workloads/kernel_spec.h"
#include "gpusched/workloads/workload_file.h"

using namespace gpusched;
using namespace gpusched::workloads;

namespace {

std::string data(const std::string& name) { return std::string(GPUSCHED_SOURCE_DIR) + "/tests/workloads/data/" + name; }

void check_error(const std::string& yaml, const std::string& message) {
    CAPTURE(yaml);
    CHECK_THROWS_WITH_AS(parse_workload(yaml, "w.yaml"), message.c_str(), InputError);
}

void check_error_contains(const std::string& yaml, const std::string& part) {
    CAPTURE(yaml);
    CHECK_THROWS_WITH_AS(parse_workload(yaml, "w.yaml"), doctest::Contains(part.c_str()), InputError);
}

const std::string head = "launches:\n  - kernel: synthetic\n    blocks: 4\n    threads: 64\n    duration: 5us\n";

}  // namespace

TEST_CASE("the documented example loads") {
    const Application app = load_workload_file(data("workload_example.yaml"));
    CHECK(app.description == "background + urgent kernels");
    REQUIRE(app.streams.size() == 2);
    CHECK(app.stream(1).priority == StreamPriority::high);
    CHECK(app.stream(1).sm_mask.empty());
    CHECK(app.stream(2).priority == StreamPriority::normal);
    CHECK(app.stream(2).sm_mask == std::vector<int>{0, 1, 2, 3, 8});
    CHECK(app.stream(7).priority == StreamPriority::normal);
    REQUIRE(app.launches.size() == 4);
    const KernelLaunch& bg = app.launches[0];
    CHECK(bg.name == "background");
    CHECK(bg.stream == 2);
    CHECK(bg.blocks() == 1024);
    CHECK(bg.block == Dim3{16, 16, 1});
    CHECK(bg.registers_per_thread == 32);
    CHECK(bg.dynamic_shared_bytes == 8192);
    CHECK(bg.work->describe() == "uniform 10us~50us (seed 7)");
    for (int i = 1; i <= 3; ++i) {
        const KernelLaunch& urgent = app.launches[static_cast<std::size_t>(i)];
        CHECK(urgent.name == "urgent");
        CHECK(urgent.stream == 1);
        CHECK(urgent.grid == Dim3{8, 4, 1});
        CHECK(urgent.threads_per_block() == 128);
        CHECK(urgent.carveout.kind == hw::Carveout::Kind::max_shared);
        CHECK(urgent.work->duration(1) == 10'000'000);
    }
}

TEST_CASE("a workload launch and the equivalent one-line spec build the same launch") {
    const Application app = parse_workload(
        "launches:\n  - {kernel: synthetic, blocks: 9, block: 8x4, regs: 20, static_smem: 100, barriers: 3, "
        "duration: 1us~9us, seed: 5, active_warps: 2, stream: 4, name: x}\n",
        "w.yaml");
    const KernelLaunch a = app.launches.at(0);
    const KernelLaunch b = parse_kernel_spec(
        "synthetic:blocks=9,block=8x4,regs=20,static_smem=100,barriers=3,duration=1us~9us,seed=5,active_warps=2,stream=4,"
        "name=x",
        "--kernel");
    CHECK(a.name == b.name);
    CHECK(a.grid == b.grid);
    CHECK(a.block == b.block);
    CHECK(a.registers_per_thread == b.registers_per_thread);
    CHECK(a.static_shared_bytes == b.static_shared_bytes);
    CHECK(a.barriers_per_block == b.barriers_per_block);
    CHECK(a.stream == b.stream);
    CHECK(a.work->describe() == b.work->describe());
    for (std::uint64_t i = 0; i < 9; ++i) CHECK(a.work->duration(i) == b.work->duration(i));
    CHECK(app.description == "w.yaml");
}

TEST_CASE("workload errors name the file, line and key") {
    check_error("", "w.yaml: empty YAML document (expected a mapping of keys)");
    check_error("description: x\n", "w.yaml:1: key 'launches': required key is missing");
    check_error("launches: []\n",
                "w.yaml:1: key 'launches': expected a non-empty list of launches (each a mapping with 'kernel: NAME')");
    check_error("launches:\n  - 5\n", "w.yaml:2: key 'launches[0]': expected a mapping, got '5'");
    check_error("launches:\n  - blocks: 4\n", "w.yaml:2: key 'launches[0].kernel': required key is missing");
    check_error("launches:\n  - kernel: apsp\n",
                "w.yaml:2: key 'launches[0].kernel': unknown kernel 'apsp' (known kernels: synthetic, apsp-minplus, "
                "apsp-fw, binomial-series, spmv, sssp, streamcluster, kernel)");
    check_error(head + "    colour: red\n",
                "w.yaml:6: key 'launches[0].colour': unknown key for kernel 'synthetic' (allowed: threads, block, blocks, "
                "grid, regs, smem, static_smem, barriers, carveout, stream, name, cluster, cluster_nonportable, duration, seed, active_warps)");
    check_error(head + "    regs: 70000\n",
                "w.yaml:6: key 'launches[0].regs': expected an integer in [0, 65536], got '70000'");
    check_error(head + "    blocks: 5\n", "w.yaml:6: key 'blocks' is given twice in one mapping");
    check_error(head + "    block: 8x8\n", "w.yaml:6: key 'launches[0].block': give either 'threads' or 'block', not both");
    check_error(head + "    seed: 3\n", "w.yaml:6: key 'launches[0].seed': applies only to a random duration LO~HI");
    check_error(head + "    repeat: 0\n", "w.yaml:6: key 'launches[0].repeat': expected an integer in [1, 1000000], got '0'");
    check_error(head + "    name: [a, b]\n", "w.yaml:6: key 'launches[0].name': expected a single value, got a list");
    check_error(head + "    name:\n", "w.yaml:6: key 'launches[0].name': expected a single value, got nothing");
    check_error("launches:\n  - kernel: synthetic\n    blocks: 4\n    threads: 64\n    duration: 5\n",
                "w.yaml:5: key 'launches[0].duration': expected a duration such as 50us, 1.5ms, 200ns or 3000ps, got '5'");
    check_error("launches:\n  - kernel: synthetic\n    blocks: 4\n    duration: 5us\n",
                "w.yaml:2: 'launches[0]': kernel 'synthetic': required key 'threads' (or 'block') is missing");
    check_error(head + "  - kernel: synthetic\n    blocks: 4\n    threads: 64\n    duration: 5us\n    stream: -1\n",
                "w.yaml:10: key 'launches[1].stream': expected an integer in [0, 1023], got '-1'");
    check_error(head + "extra: 1\n",
                "w.yaml:6: unknown key 'extra' (known keys here: description, host, launches, notes, partition, partitions, streams)");
    check_error_contains("launches: [\n", "w.yaml:2: YAML syntax error");
    check_error_contains(std::string("launches:\0", 10), "contains NUL bytes");
}

TEST_CASE("stream errors") {
    check_error("streams: 3\n" + head, "w.yaml:1: key 'streams': expected a list of {id, priority, sms}");
    check_error("streams:\n  - priority: high\n" + head, "w.yaml:2: key 'streams[0].id': required key is missing");
    check_error("streams:\n  - id: 1024\n" + head,
                "w.yaml:2: key 'streams[0].id': expected an integer in [0, 1023], got '1024'");
    check_error("streams:\n  - id: 1\n    priority: urgent\n" + head,
                "w.yaml:3: key 'streams[0].priority': expected normal, high or a CUDA priority (an integer in [-1024, 0], "
                "lower is higher), got 'urgent'");
    check_error("streams:\n  - id: 1\n  - id: 1\n" + head, "w.yaml:3: key 'streams[1].id': stream 1 is listed twice");
    check_error("streams:\n  - id: 1\n    sms: []\n" + head,
                "w.yaml:3: key 'streams[0].sms': expected a non-empty list of SM ids or \"A-B\" ranges (leave it out for "
                "all SMs)");
    check_error("streams:\n  - id: 1\n    sms: [0, -2]\n" + head,
                "w.yaml:3: key 'streams[0].sms[1]': expected an SM id in [0, 99999] or a range \"A-B\" with A <= B, got "
                "'-2'");
    check_error_contains("streams:\n  - id: 1\n    sms: [\"5-2\"]\n" + head, "key 'streams[0].sms[0]'");
    check_error_contains("streams:\n  - id: 1\n    sms: [\"0-100000\"]\n" + head, "key 'streams[0].sms[0]'");
    check_error_contains("streams:\n  - id: 1\n    sms: [\"a-b\"]\n" + head, "key 'streams[0].sms[0]'");
    check_error("streams:\n  - id: 1\n    sms: [\"0-3\", 2]\n" + head, "w.yaml:3: key 'streams[0].sms[1]': SM 2 is listed twice");
    check_error("streams:\n  - id: 1\n    mask: [1]\n" + head,
                "w.yaml:3: unknown key 'streams[0].mask' (known keys here: id, partition, priority, sms)");
}

TEST_CASE("repeat limits and file errors") {
    const Application app = parse_workload(head + "    repeat: 1000\n", "w.yaml");
    CHECK(app.launches.size() == 1000);
    CHECK(app.launches[0].work == app.launches[999].work);
    std::string many = "launches:\n";
    for (int i = 0; i < 2; ++i)
        many += "  - {kernel: synthetic, blocks: 1, threads: 1, duration: 1us, repeat: 600000}\n";
    check_error(many, "w.yaml:3: key 'launches[1].repeat': the workload would have more than 1000000 launches (after "
                      "repeats)");
    CHECK_THROWS_WITH_AS(load_workload_file(data("no_such_workload.yaml")),
                         doctest::Contains("no_such_workload.yaml: cannot read workload file"), InputError);
    CHECK_THROWS_WITH_AS(load_workload_file(data("replay_binary.csv")), doctest::Contains(":3: not a text workload file"),
                         InputError);
}
