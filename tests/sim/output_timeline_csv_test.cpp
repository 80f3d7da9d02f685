// TimelineCsvWriter: exact text of a hand-written 3-block run, quoting, determinism.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "gpusched/sim/output/timeline_csv.h"
#include "gpusched/workloads/replay_timeline.h"

namespace gpusched::sim {
namespace {

/// Two SMs with two slots each; one launch "k" of 3 blocks of 128 threads.
struct TinyRun {
    hw::GpuSpec gpu;
    workloads::Application app;
    RunInfo info;

    explicit TinyRun(const std::string& kernel_name = "k") {
        gpu.name = "tiny";
        gpu.full_name = "Tiny GPU";
        gpu.sm_count = 2;
        gpu.max_blocks_per_sm = 2;
        workloads::KernelLaunch l;
        l.name = kernel_name;
        l.grid.x = 3;
        l.block.x = 128;
        l.stream = 0;
        app.description = "hand-written";
        app.launches = {l};
        info.gpu = &gpu;
        info.app = &app;
        info.policy = "round-robin";
        info.execution = "fixed";
        hw::OccupancyResult two_per_sm;
        two_per_sm.blocks_per_sm = 2;
        info.occupancy.push_back(two_per_sm);
    }

    /// Blocks 0 and 1 start at 1ns on SMs 0 and 1, block 2 at 1.5ns on SM 0 (slot 1);
    /// they end at 11ns, 12ns and 20.5005ns.
    void drive(SimObserver& o) const {
        const BlockRecord b0{0, 0, 0, 0, 0, 1000, 11000};
        const BlockRecord b1{0, 1, 1, 0, 0, 1000, 12000};
        const BlockRecord b2{0, 2, 0, 1, 500, 1500, 20500500};
        o.on_begin(info);
        o.on_kernel_ready(0, 0);
        o.on_block_dispatched(b0);
        o.on_block_dispatched(b1);
        o.on_block_dispatched(b2);
        o.on_block_completed(b0);
        o.on_block_completed(b1);
        o.on_block_completed(b2);
        o.on_kernel_completed(0, 1000, 20500500);
        o.on_end(20500500);
    }
};

std::string render(const TinyRun& run) {
    std::ostringstream out;
    TimelineCsvWriter w(out, "0.1.0");
    run.drive(w);
    CHECK(w.rows() == 3);
    return out.str();
}

}  // namespace

TEST_CASE("timeline csv: exact text of a 3-block run") {
    CHECK(render(TinyRun{}) ==
          "# gpusched timeline\n"
          "# gpu=tiny (Tiny GPU)\n"
          "# sm_count=2\n"
          "# policy=round-robin\n"
          "# execution=fixed\n"
          "# tool_version=0.1.0\n"
          "# workload=hand-written\n"
          "# launch.0=k blocks=3 threads=128 stream=0\n"
          "kernel,launch,block,sm,dispatch_ns,start_ns,end_ns\n"
          "k,0,0,0,0.000,1.000,11.000\n"
          "k,0,1,1,0.000,1.000,12.000\n"
          "k,0,2,0,0.500,1.500,20500.500\n");
}

TEST_CASE("timeline csv: kernel names that need it are quoted; metadata stays on one line") {
    const std::string text = render(TinyRun{"a,\"b\"\nc"});
    CHECK(text.find("# launch.0=a,\"b\" c blocks=3") != std::string::npos);
    CHECK(text.find("\n\"a,\"\"b\"\" c\",0,0,0,0.000,1.000,11.000\n") != std::string::npos);
    CHECK(render(TinyRun{" padded "}).find("\n\" padded \",0,0,0,") != std::string::npos);
}

TEST_CASE("timeline csv: a block of an unknown launch is rejected") {
    TinyRun run;
    std::ostringstream out;
    TimelineCsvWriter w(out, "x");
    w.on_begin(run.info);
    CHECK_THROWS_AS(w.on_block_completed({1, 0, 0, 0, 0, 0, 1}), std::out_of_range);
}

TEST_CASE("timeline csv: --replay reads back the launches and block durations") {
    const auto path = std::filesystem::temp_directory_path() / "gpusched_output_timeline_csv_test.csv";
    {
        std::ofstream out(path);
        TimelineCsvWriter w(out, "0.1.0");
        TinyRun{"my,kernel"}.drive(w);
    }
    const workloads::Application app = workloads::load_replay_timeline(path.string(), 128, 0, 0);
    std::filesystem::remove(path);
    REQUIRE(app.launches.size() == 1);
    const auto& l = app.launches[0];
    CHECK(l.name == "my,kernel");
    REQUIRE(l.blocks() == 3);
    CHECK(l.work->duration(0) == 10000);
    CHECK(l.work->duration(1) == 11000);
    CHECK(l.work->duration(2) == 20499000);
}

TEST_CASE("timeline csv: identical event sequences give byte-identical output") {
    CHECK(render(TinyRun{}) == render(TinyRun{}));
}

}  // namespace gpusched::sim
