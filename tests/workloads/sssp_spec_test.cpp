// The `sssp` kernel spec: keys, streams, per-kernel threads and carveouts, workload files, errors and bounds.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "gpusched/support/input_error.h"
#include "gpusched/workloads/kernel_spec.h"
#include "gpusched/workloads/sssp_work.h"
#include "gpusched/workloads/workload_file.h"
#include "support/sim_fixtures.h"

using namespace gpusched;
using namespace gpusched::workloads;

namespace {

std::string data(const std::string& name) { return std::string(GPUSCHED_SOURCE_DIR) + "/tests/workloads/data/sssp/" + name; }

Application app(const std::string& spec) { return application_from_specs({spec}); }

void check_error(const std::string& spec, const std::string& part) {
    CAPTURE(spec);
    CHECK_THROWS_WITH_AS(app(spec), doctest::Contains(part.c_str()), InputError);
}

}  // namespace

TEST_CASE("sssp spec: K instances on C streams, per-kernel threads and carveouts") {
    // The tiny graph: source 0 takes 4 iterations (11 launches), source 1 takes 3 (8 launches).
    const Application a = app("sssp:graph=" + data("tiny.gr") +
                              ",sources=2,streams=2,stream=3,threads=64,min_threads=32,update_carveout=max-l1,"
                              "carveout=25,regs=24,name=ap");
    REQUIRE(a.launches.size() == 19);
    std::set<int> streams;
    for (const auto& l : a.launches) {
        streams.insert(l.stream);
        CHECK(l.registers_per_thread == 24);
        const auto* work = dynamic_cast<const SsspWork*>(l.work.get());
        REQUIRE(work != nullptr);
        const std::string kernel = sssp_kernel_name(work->kernel());
        CHECK(l.name == "ap-" + kernel);
        CHECK(l.block.x == (kernel == "minimum" ? 32u : 64u));
        CHECK(l.grid.x == 1);
        if (kernel == "update") CHECK(l.carveout.kind == hw::Carveout::Kind::max_l1);
        else CHECK(l.carveout.percent == 25);
    }
    CHECK(streams == std::set<int>{3, 4});
    // The same from a random graph: deterministic, and 2 streams only reorder the launches of 1.
    const Application one = app("sssp:nodes=500,degree=3,seed=9,sources=4");
    const Application two = app("sssp:nodes=500,degree=3,seed=9,sources=4,streams=2");
    CHECK(one.launches.size() == two.launches.size());
    CHECK(one.launches.front().block.x == 256);
    CHECK(one.launches.front().grid.x == 2);  // ceil(500 / 256)
    CHECK(app("sssp:nodes=500,degree=3,seed=9,sources=4").launches.size() == one.launches.size());
}

TEST_CASE("sssp in a workload file") {
    const Application a = parse_workload("launches:\n"
                                         "  - kernel: sssp\n"
                                         "    graph: " + data("tiny.txt") + "\n"
                                         "    sources: 2\n"
                                         "    streams: 2\n"
                                         "    criteria: both\n"
                                         "    repeat: 2\n",
                                         "w.yaml");
    CHECK(a.launches.size() == 2 * 19);  // criteria=both settles like out here: 4 + 3 iterations
    CHECK_THROWS_WITH_AS(parse_workload("launches:\n  - kernel: sssp\n    nodes: 10\n    degree: 2\n    streams: 40\n",
                                        "w.yaml"),
                         "w.yaml:5: key 'launches[0].streams': expected an integer in [1, 32], got '40'", InputError);
}

TEST_CASE("sssp spec errors name the key and the bound") {
    check_error("sssp:degree=2", "kernel 'sssp': required key 'nodes' (or 'graph') is missing");
    check_error("sssp:nodes=10", "required key 'degree' is missing");
    check_error("sssp:nodes=10,degree=10", "key 'degree': expected a number in [0, 9]");
    check_error("sssp:nodes=0,degree=0", "key 'nodes': expected an integer in [1, 16777216], got '0'");
    check_error("sssp:nodes=10,degree=2,streams=33", "key 'streams': expected an integer in [1, 32], got '33'");
    check_error("sssp:nodes=10,degree=2,sources=11", "key 'sources': the graph has 10 nodes, fewer than 11 sources");
    check_error("sssp:nodes=10,degree=2,stream=1020,streams=8", "key 'streams': streams 1020..1027 go past stream id 1023");
    check_error("sssp:nodes=10,degree=2,criteria=sideways", "key 'criteria': expected one of out, in, both, got 'sideways'");
    check_error("sssp:nodes=10,degree=2,blocks=4", "key 'blocks': the grids follow from the node count");
    check_error("sssp:nodes=10,degree=2,block=8x8", "key 'block': the sssp kernels use 1-D blocks");
    check_error("sssp:nodes=10,degree=2,min_carveout=lots", "key 'min_carveout'");
    check_error("sssp:graph=" + data("tiny.gr") + ",nodes=7", "key 'nodes': give either graph=PATH or a random graph");
    check_error("sssp:graph=" + data("truncated.gr"), data("truncated.gr") + ":3: the file ends after 2 of the 3 arcs");
    check_error("sssp:nodes=16777216,degree=2", "key 'degree': nodes x degree is 33554432 expected edges; at most 30000000");
    check_error("sssp:nodes=100000,degree=1,sources=100",
                "key 'sources': 100 sources x 100000 nodes is more than 8388608; use fewer sources or a smaller graph");
    check_error("sssp:nodes=9000000,degree=0", "kernel 'sssp': 1 sources x 9000000 nodes is more than 8388608");
    // A chain of 200000 nodes settles one node per iteration: source 0 takes 200000 iterations (599999
    // launches), source 1 199999 (599996): together over the application limit.
    const std::string chain = (std::filesystem::temp_directory_path() / "gpusched_sssp_chain.txt").string();
    {
        std::ofstream out(chain);
        for (int v = 0; v + 1 < 200000; ++v) out << v << ' ' << v + 1 << " 1\n";
    }
    check_error("sssp:graph=" + chain + ",sources=2",
                "key 'sources': instances 0..1 alone need 1199995 launches (3 per iteration; instance 1 has 199999 "
                "iterations), more than the 1000000 an application may have; use fewer sources");
    std::filesystem::remove(chain);
}

TEST_CASE("sssp on 1 vs 4 streams: small kernels overlap, the makespan shrinks") {
    const hw::GpuSpec gpu = hw::resolve_gpu("h100");
    const auto makespan = [&](const std::string& spec) {
        const Application a = app(spec);
        auto policy = scheduler::make_policy("most-room");
        sim::Engine engine(gpu, a, *policy, "shared");
        return engine.run().makespan;
    };
    const Time one = makespan("sssp:nodes=4000,degree=4,sources=8,streams=1,threads=128");
    const Time four = makespan("sssp:nodes=4000,degree=4,sources=8,streams=4,threads=128");
    CAPTURE(one);
    CAPTURE(four);
    CHECK(four * 2 < one);
}
