// The engine calibration written into a workload (calibrated_floor, calibration): used when its label holds, searched again when not.
#include <doctest/doctest.h>

#include <sstream>

#include "gpusched/hw/gpu_overrides.h"
#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/scheduler/registry.h"
#include "gpusched/sim/execution/measured_calibration.h"
#include "gpusched/sim/output/summary_collector.h"
#include "gpusched/sim/output/timeline_csv.h"
#include "gpusched/sim/simulation.h"
#include "gpusched/workloads/kernel_work.h"
#include "gpusched/workloads/workload_file.h"

using namespace gpusched;

namespace {

// Kernels of the `cnn` trace (validation/data/h100/torch/): a layout kernel with a floor (3.03 waves), a
// DRAM-term one (its bytes scaled), a duration-only one (two streams), and one that needs no calibration.
const std::string kWorkload = R"(launches:
  - kernel: kernel
    grid: 25x4x32
    block: 256x1x1
    regs: 32
    smem: 4224
    measured: 6.592us
    measured_gpu: h100
    instructions: 2518528
    dram_bytes: 12854528
    l2_bytes: 28612960
  - kernel: kernel
    grid: 3136x1x1
    block: 128x1x1
    regs: 32
    measured: 9.633us
    measured_gpu: h100
    instructions: 426496
    dram_bytes: 25714944
    l2_bytes: 34446496
  - kernel: kernel
    stream: 1
    blocks: 1000
    threads: 256
    measured: 20us
    measured_gpu: h100
  - kernel: kernel
    blocks: 264
    threads: 128
    warp_instr: 5000
    warp_latency_cycles: 2000
)";

/// The run's whole output: its timeline CSV (every block's SM, dispatch, start and end) and its notes.
std::string simulated(const workloads::Application& app, const hw::GpuSpec& gpu) {
    const auto policy = scheduler::make_policy("most-room");
    sim::Simulation run(gpu, app, *policy, "auto");
    std::ostringstream csv;
    sim::TimelineCsvWriter timeline(csv, "test");
    sim::SummaryCollector summary;
    run.observe(timeline).observe(summary);
    run.run();
    for (const auto& note : summary.summary().notes) csv << "note: " << note << "\n";
    return csv.str();
}

std::string key_of(const workloads::WorkloadItem& item, const std::string& key) {
    for (const auto& k : item.keys)
        if (k.key == key) return k.value;
    return "";
}

void set_key(workloads::WorkloadItem& item, const std::string& key, const std::string& value) {
    for (auto& k : item.keys)
        if (k.key == key) k.value = value;
}

}  // namespace

TEST_CASE("written calibration: a workload with the keys simulates byte-identically to one without") {
    const auto policy = scheduler::make_policy("most-room");
    const workloads::WorkloadDocument plain = workloads::read_workload_document(kWorkload, "test.yaml");
    workloads::WorkloadDocument written = plain;
    CHECK(sim::write_engine_calibrations(written, *policy) == 3);
    for (std::size_t i = 0; i < 3; ++i) {
        CHECK(!key_of(written.items[i], "calibrated_floor").empty());
        CHECK(key_of(written.items[i], "calibration").rfind(std::string(sim::kCalibrationVersion) + "/most-room/", 0) == 0);
    }
    CHECK(key_of(written.items[3], "calibrated_floor").empty());
    // Written twice: the keys are replaced, not repeated.
    workloads::WorkloadDocument twice = written;
    CHECK(sim::write_engine_calibrations(twice, *policy) == 3);
    CHECK(twice == written);

    const workloads::Application without = workloads::build_application(plain);
    const workloads::Application with = workloads::build_application(written);
    const auto* work = dynamic_cast<const workloads::KernelWork*>(with.launches[0].work.get());
    REQUIRE(work != nullptr);
    REQUIRE(work->stored_scale());
    for (const hw::GpuSpec& gpu : {hw::resolve_gpu("h100"), hw::with_sm_count(hw::resolve_gpu("h100"), 64), hw::resolve_gpu("h200")}) {
        CAPTURE(gpu.name);
        CAPTURE(gpu.sm_count);
        const std::string a = simulated(without, gpu);
        CHECK(a.find("calibrated the launch again") == std::string::npos);
        CHECK(a == simulated(with, gpu));
    }
}

TEST_CASE("written calibration: the stored scale is used when its label holds, and searched again when it does not") {
    const auto policy = scheduler::make_policy("most-room");
    const hw::GpuSpec h100 = hw::resolve_gpu("h100");
    workloads::WorkloadDocument written = workloads::read_workload_document(kWorkload, "test.yaml");
    sim::write_engine_calibrations(written, *policy);
    const std::string reference = simulated(workloads::build_application(written), h100);

    SUBCASE("a scale with its own label is taken as written: twice the floor is a longer run") {
        workloads::WorkloadDocument doubled = written;
        const workloads::Application app = workloads::build_application(doubled);
        set_key(doubled.items[0], "calibrated_floor", "2");
        set_key(doubled.items[0], "calibration", *sim::calibration_label(app.launches[0], *policy, 2));
        const std::string out = simulated(workloads::build_application(doubled), h100);
        CHECK(out != reference);
        CHECK(out.find("calibrated the launch again") == std::string::npos);
    }
    SUBCASE("a scale edited under its old label is stale: the search's result, with a note") {
        workloads::WorkloadDocument edited = written;
        set_key(edited.items[0], "calibrated_floor", "2");
        const std::string out = simulated(workloads::build_application(edited), h100);
        CHECK(out.find("calibrated the launch again") != std::string::npos);
        CHECK(out.substr(0, out.find("note: ")) == reference.substr(0, reference.find("note: ")));
    }
    SUBCASE("a label of another policy or version is foreign: searched again, with a note") {
        workloads::WorkloadDocument foreign = written;
        set_key(foreign.items[1], "calibration", "gpusched-calibration-0/most-room/0123456789abcdef");
        const std::string out = simulated(workloads::build_application(foreign), h100);
        CHECK(out.find("calibrated the launch again") != std::string::npos);
        CHECK(out.substr(0, out.find("note: ")) == reference.substr(0, reference.find("note: ")));
    }
    SUBCASE("another policy's run does not take the label written under most-room") {
        const auto walk = scheduler::make_policy("round-robin");
        const workloads::Application app = workloads::build_application(written);
        CHECK(sim::calibration_label(app.launches[0], *walk, 1) != sim::calibration_label(app.launches[0], *policy, 1));
        const auto calibrated = sim::calibrate_measured_launches(app, *walk);
        REQUIRE(calibrated != nullptr);
        const auto* work = dynamic_cast<const workloads::KernelWork*>(calibrated->launches[0].work.get());
        REQUIRE(work != nullptr);
        bool noted = false;
        for (const auto& note : work->notes(h100, "shared")) noted = noted || note.find("calibrated the launch again") != std::string::npos;
        CHECK(noted);
    }
    SUBCASE("the two keys go together") {
        workloads::WorkloadDocument half = written;
        std::erase_if(half.items[0].keys, [](const auto& k) { return k.key == "calibration"; });
        CHECK_THROWS_WITH(workloads::build_application(half), doctest::Contains("calibrated_floor and calibration go together"));
    }
}
