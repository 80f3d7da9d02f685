// SSSP kernels: hand-derived per-block costs on the tiny graph, launch order over streams, overlap in the engine.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "gpusched/workloads/crauser_sssp.h"
#include "gpusched/workloads/graph_file.h"
#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/workloads/sssp_latency.h"
#include "gpusched/workloads/sssp_launches.h"
#include "gpusched/workloads/sssp_work.h"
#include "support/sim_fixtures.h"

using namespace gpusched;
using namespace gpusched::workloads;

namespace {

Graph tiny() { return read_graph_file(std::string(GPUSCHED_SOURCE_DIR) + "/tests/workloads/data/sssp/tiny.gr"); }

SsspKernelConfig threads(std::uint32_t relax, std::uint32_t min, std::uint32_t update) {
    SsspKernelConfig c;
    c.relax_threads = relax;
    c.min_threads = min;
    c.update_threads = update;
    return c;
}

}  // namespace

// Source 0 of the tiny graph (crauser_sssp_test.cpp works out its sets): settle iterations
// s = {0, 1, 1, 2, 3, 3, never}; out-degrees 2, 1, 2, 1, 1, 0, 1. One block of 32 threads per kernel,
// 7 active threads: one active warp. Instruction counts are the constants of sssp_work.cpp.
TEST_CASE("per-block costs of the three kernels on the tiny graph, 32 threads per block") {
    const Graph g = tiny();
    const auto tables = std::make_shared<const SsspTables>(g, crauser_sssp(g, 0, CrauserCriteria::out),
                                                           threads(32, 32, 32));
    // relax, i=1: F={1,2} in warp 0, its loop runs max(deg 1, deg 2) = 2 trips: 8 + 5 + 2 x 10 = 33 slots.
    // Bytes: 7 F flags + 2 x 12 (dist, two row offsets) + 3 edges x 9 (col, w, U) + 3 atomics x 8 = 82.
    SsspBlockCost c = tables->cost(SsspKernel::relax, 1, 0);
    CHECK(c.active_threads == 7);
    CHECK(c.active_warps == 1);
    CHECK(c.issue_slots == 33);
    CHECK(c.busiest_warp_slots == 33);
    CHECK(c.dram_bytes == 82);
    // relax, i=3: F={4,5}, max degree 1, one edge (4->5) into a settled node: 8 + 5 + 10 = 23; 7 + 24 + 9 = 40 B.
    c = tables->cost(SsspKernel::relax, 3, 0);
    CHECK(c.issue_slots == 23);
    CHECK(c.dram_bytes == 40);
    // minimum, i=0: 7 elements, all in warp 0's first load (the second, at +32, is past n); 6 are unsettled.
    // 12 (load) + 4 (one group with an unsettled element) + tree 5 steps x 3 + publish 1 + 2 = 34;
    // busiest (warp 0, both loads counted): 12 + 8 + 15 + 3 = 38. Bytes 7 U flags + 6 x 8 + 8 (atomicMin) = 63.
    c = tables->cost(SsspKernel::minimum, 0, 0);
    CHECK(c.issue_slots == 34);
    CHECK(c.busiest_warp_slots == 38);
    CHECK(c.dram_bytes == 63);
    // update, i=0: 6 unsettled in warp 0 (test 4), settles {1, 2} (2 stores): 9 + 4 + 2 = 15 slots;
    // bytes 7 x 2 (F store, U load) + 6 x 4 (dist) + 2 x 2 = 42.
    c = tables->cost(SsspKernel::update, 0, 0);
    CHECK(c.issue_slots == 15);
    CHECK(c.dram_bytes == 42);
    CHECK_THROWS_AS((void)tables->cost(SsspKernel::update, 0, 1), std::out_of_range);

    const SsspWork relax(tables, SsspKernel::relax, 1);
    CHECK(relax.duration(0) == 33'000);  // ns_per_instr 1: 33 ns
    CHECK(relax.warp_work(0)->issue_slots == 33);
    CHECK(relax.active_warps(0, 1) == 1);
    CHECK(relax.describe() == "sssp relax, source 0, iteration 2 of 4: |F| 2, |U| 4, 3 edges");
}

// Smaller blocks: relax 4 threads (blocks {0..3}, {4..6}), minimum 2 threads (blocks of 4 elements:
// thread t loads t and t + 2), update 32.
TEST_CASE("per-block costs with several blocks follow each block's own nodes") {
    const Graph g = tiny();
    const auto tables =
        std::make_shared<const SsspTables>(g, crauser_sssp(g, 0, CrauserCriteria::out), threads(4, 2, 32));
    // relax, i=3: F={4,5} lies in block 1 (3 active threads): 23 slots, 3 + 24 + 9 = 36 B; block 0 only tests F.
    CHECK(tables->cost(SsspKernel::relax, 3, 0).issue_slots == 8);
    CHECK(tables->cost(SsspKernel::relax, 3, 1).issue_slots == 23);
    CHECK(tables->cost(SsspKernel::relax, 3, 1).dram_bytes == 36);
    // minimum, i=1, block 0: loads {0,1} (s 0, 1) and {2,3} (s 1, 2): only the second holds U_1 (node 3).
    // 12 + 4 + tree (one step, one pair: 3) + 3 = 22. Block 1: {4,5} (s 3, 3) and {6} (never): 2 groups,
    // 3 unsettled elements: 12 + 8 + 3 + 3 = 26; bytes 3 + 3 x 8 + 8 = 35.
    CHECK(tables->cost(SsspKernel::minimum, 1, 0).issue_slots == 22);
    CHECK(tables->cost(SsspKernel::minimum, 1, 1).issue_slots == 26);
    CHECK(tables->cost(SsspKernel::minimum, 1, 1).dram_bytes == 35);
    CHECK(sssp_grid_blocks(SsspKernel::minimum, 7, tables->config()) == 2);
    CHECK(sssp_grid_blocks(SsspKernel::relax, 7, tables->config()) == 2);
    CHECK(sssp_grid_blocks(SsspKernel::update, 7, tables->config()) == 1);
}

// Source 0 of the tiny graph: settle s = {0, 1, 1, 2, 3, 3, never}; reached (dist finite in the
// minimum of iteration i) from r = {0, 0, 0, 1, 1, 2, never} (node 3's predecessors 1 and 2 settle
// in 1, node 4's 2 in 1, node 5's 3 in 2; node 6 has none). So each node is a reached element of
// U_i for i in [r, s): 1 and 2 in [0, 1), 3 in [1, 2), 4 in [1, 3), 5 in [2, 3).
TEST_CASE("sssp minimum: the dependent loads of each block's longest warp, and the derived floors") {
    const Graph g = tiny();
    const auto tables =
        std::make_shared<const SsspTables>(g, crauser_sssp(g, 0, CrauserCriteria::out), threads(4, 2, 32));
    // min_threads 2: block 0 loads {0, 1} then {2, 3}, block 1 {4, 5} then {6}. i = 1: {0, 1} all
    // settled: 1 level (U); {2, 3}: 3 is reached in U_1: 3 levels (U, dist, out-weight): 4.
    // Block 1: {4, 5}: 4 is reached in U_1: 3; {6} unreached in U_1: 2 (U, dist = inf): 5.
    CHECK(tables->cost(SsspKernel::minimum, 1, 0).load_levels == 4);
    CHECK(tables->cost(SsspKernel::minimum, 1, 1).load_levels == 5);
    // i = 3: {4, 5} settled: 1; {6}: 2.
    CHECK(tables->cost(SsspKernel::minimum, 3, 1).load_levels == 3);
    // The floors compose the segments (numbers chosen to tell them apart): minimum entry + levels x
    // level + tree; update entry (+ test in a block holding a node of U_i); relax entry (+ frontier
    // + longest loop x edge in a block holding a frontier node).
    SsspLatency l;
    l.relax_entry = 1000;
    l.relax_frontier = 200;
    l.edge = 30;
    l.min_entry = 100;
    l.min_level = 10;
    l.min_tree = 1;
    l.update_entry = 7000;
    l.update_test = 50;
    CHECK(SsspWork(tables, SsspKernel::minimum, 1, l).latency_bound_cycles(1) == 100 + 5 * 10 + 1);
    // update, 32 threads: U_3 = {6}: a node of U_i, tested.
    CHECK(SsspWork(tables, SsspKernel::update, 2, l).latency_bound_cycles(0) == 7050);
    // relax, i = 3: F = {4, 5} in block 1 (max out-degree 1); block 0 only tests F.
    CHECK(SsspWork(tables, SsspKernel::relax, 3, l).latency_bound_cycles(1) == 1000 + 200 + 30);
    CHECK(SsspWork(tables, SsspKernel::relax, 3, l).latency_bound_cycles(0) == 1000);
    // Without derived segments (not bound, or edge_latency_cycles given): the configured edge latency, 0 here.
    CHECK(SsspWork(tables, SsspKernel::minimum, 1).latency_bound_cycles(1) == 0);
}

// Source 0 takes 4 iterations (11 launches: no update in the last), source 1 takes 3 (1 settles 3,
// then 5 with Delta = inf; then nothing is reached): 8 launches.
TEST_CASE("K instances over C streams: batches of C, kernel by kernel within an iteration") {
    const Graph g = tiny();
    KernelLaunch base;
    base.name = "sp";
    base.stream = 5;
    SsspOptions o;
    o.sources = 2;
    o.streams = 2;
    const auto launches = sssp_launches(g, o, base, 1000);
    REQUIRE(launches.size() == 19);
    std::string order;
    for (const auto& l : launches)
        order += l.name.substr(3, 1) + std::to_string(l.stream - 5) + " ";
    CHECK(order ==
          "r0 r1 m0 m1 u0 u1 "  // iteration 0
          "r0 r1 m0 m1 u0 u1 "  // iteration 1
          "r0 r1 m0 m1 u0 "     // iteration 2: instance 1 ends with its minimum
          "r0 m0 ");            // iteration 3
    CHECK(launches[0].grid.x == 1);
    CHECK(launches[0].block.x == 256);
    CHECK(launches[2].static_shared_bytes == 4 * 256);  // reduce4's partial minima
    o.streams = 1;
    const auto serial = sssp_launches(g, o, base, 1000);
    REQUIRE(serial.size() == 19);
    for (const auto& l : serial) CHECK(l.stream == 5);
    CHECK_THROWS_AS(sssp_launches(g, o, base, 18), std::length_error);
}

TEST_CASE("small SSSP kernels overlap on more streams: the makespan shrinks") {
    const Graph g = random_graph(3000, 4, 5);
    const hw::GpuSpec gpu = hw::resolve_gpu("h100");
    const auto makespan = [&](std::uint32_t streams, const std::string& execution) {
        KernelLaunch base;
        base.name = "sssp";
        SsspOptions o;
        o.sources = 8;
        o.streams = streams;
        o.kernels = threads(128, 128, 128);
        workloads::Application app;
        app.launches = sssp_launches(g, o, base, 100000);
        auto policy = scheduler::make_policy("most-room");
        sim::Engine engine(gpu, app, *policy, execution);
        return engine.run().makespan;
    };
    for (const std::string execution : {"fixed", "shared"}) {
        CAPTURE(execution);
        const Time one = makespan(1, execution);
        const Time four = makespan(4, execution);
        // 24 blocks per launch on 132 SMs: four instances side by side take far less than four in a row.
        CHECK(four * 2 < one);
        CHECK(makespan(4, execution) == four);  // deterministic
    }
}

// SsspTables keeps recent block costs per thread and its derivations per GPU: answers must not depend
// on what was asked before. Each instance's costs computed alone, in a thread of its own (an empty cache),
// against two instances (sources 0 and 1) asked in an interleaved, repeated order in this thread.
TEST_CASE("sssp tables: cached costs and per-GPU derivations equal fresh ones, whatever was asked before") {
    const Graph g = tiny();
    const auto config = threads(4, 2, 4);
    const auto fresh = [&](std::uint32_t source) {
        return std::make_shared<const SsspTables>(g, crauser_sssp(g, source, CrauserCriteria::out), config);
    };
    const auto questions = [&](const auto& ask) {
        for (std::uint32_t i = 0; i < 3; ++i)
            for (const SsspKernel k : {SsspKernel::relax, SsspKernel::minimum, SsspKernel::update})
                for (std::uint64_t block = 0; block < sssp_grid_blocks(k, g.nodes(), config); ++block) ask(k, i, block);
    };
    const auto summary = [](const SsspBlockCost& c) {
        return std::vector<double>{c.issue_slots, c.busiest_warp_slots, c.dram_bytes, double(c.active_threads),
                                   double(c.load_levels), double(c.frontier)};
    };
    std::vector<std::vector<double>> alone[2];
    for (std::uint32_t source : {0u, 1u})
        std::thread([&] {
            const auto tables = fresh(source);
            questions([&](SsspKernel k, std::uint32_t i, std::uint64_t block) {
                alone[source].push_back(summary(tables->cost(k, i, block)));
            });
        }).join();
    REQUIRE(alone[0] != alone[1]);  // the two instances differ somewhere, so a mixed-up cache shows
    const auto a = fresh(0), b = fresh(1);
    for (int round = 0; round < 3; ++round) {
        std::size_t q = 0;
        questions([&](SsspKernel k, std::uint32_t i, std::uint64_t block) {
            CAPTURE(round);
            CAPTURE(q);
            CHECK(summary(a->cost(k, i, block)) == alone[0][q]);
            CHECK(summary(b->cost(k, i, block)) == alone[1][q]);
            ++q;
        });
    }
    // A block past the grid throws every time (nothing cached for it).
    for (int twice = 0; twice < 2; ++twice) CHECK_THROWS_AS((void)a->cost(SsspKernel::update, 0, 99), std::out_of_range);

    // Per GPU: the h100's floors, then the a100's (another L2 latency), then the h100's again: each as a
    // fresh derivation on that GPU gives it.
    const hw::GpuSpec h100 = hw::resolve_gpu("h100"), a100 = hw::resolve_gpu("a100");
    const auto floors = [](const SsspLatency& l) {
        return std::vector<double>{l.relax_entry, l.relax_frontier, l.edge, l.min_entry, l.min_level, l.min_tree,
                                   l.update_entry, l.update_test};
    };
    for (const hw::GpuSpec* gpu : {&h100, &a100, &h100}) {
        GpuNumbers numbers(*gpu, "sssp", "edge_latency_cycles");
        CHECK(floors(a->latency_on(*gpu)) == floors(derive_sssp_latency(numbers, *fresh(0), *gpu)));
        for (const SsspKernel k : {SsspKernel::relax, SsspKernel::minimum, SsspKernel::update}) {
            GpuNumbers n(*gpu, "sssp", "edge_latency_cycles");
            CHECK(a->derivation_on(*gpu, k).steps == sssp_latency_steps(n, *fresh(0), *gpu, k));
            CHECK(a->derivation_on(*gpu, k).gpu_numbers.size() == n.used().size());
        }
    }
    CHECK(floors(a->latency_on(h100)) != floors(a->latency_on(a100)));
}
