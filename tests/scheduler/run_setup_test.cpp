// resolve_run_setup: the asked keys first, then the GPU's defaults, then the built-in ones; the rule notes of what it took.
#include <doctest/doctest.h>

#include "gpusched/hw/gpu_overrides.h"
#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/scheduler/registry.h"
#include "gpusched/scheduler/run_setup.h"
#include "gpusched/support/input_error.h"
#include "gpusched/support/key_error.h"
#include "gpusched/workloads/kernel_spec.h"

using namespace gpusched;

namespace {

/// The c2050 test file whose defaults.policy is round-robin, by a rule it states.
hw::GpuSpec round_robin_default_gpu() {
    return hw::resolve_gpu(std::string(GPUSCHED_SOURCE_DIR) + "/tests/cli/data/round_robin_default_gpu.yaml");
}

}  // namespace

TEST_CASE("the asked policy and execution model win over the GPU's defaults, without notes") {
    const hw::GpuSpec gpu = round_robin_default_gpu();
    const auto setup = scheduler::resolve_run_setup(gpu, {.policy = "sorted", .execution = "fixed"});
    CHECK(setup.policy_name == "sorted");
    CHECK(setup.policy->name() == "sorted");
    CHECK(setup.execution == "fixed");
    CHECK(setup.notes.empty());
}

TEST_CASE("a GPU's defaults.policy is taken when none is asked, with its rule's note") {
    const hw::GpuSpec gpu = round_robin_default_gpu();
    const auto setup = scheduler::resolve_run_setup(gpu, {});
    CHECK(setup.policy_name == "round-robin");
    CHECK(setup.policy->name() == "round-robin");
    CHECK(setup.execution == "auto");  // the file's defaults.execution, which no rule gives
    REQUIRE(setup.notes.size() == 1);
    CHECK(setup.notes[0] == "GPU 'c2050-round-robin-default' default policy round-robin is a rule, not data (test: "
                            "round-robin stated by the test file)");
}

TEST_CASE("a GPU without defaults takes the registry's default policy and auto") {
    hw::GpuSpec gpu = hw::resolve_gpu("h100");
    gpu.default_policy.clear();
    gpu.default_execution.clear();
    const auto setup = scheduler::resolve_run_setup(gpu, {});
    CHECK(setup.policy_name == scheduler::default_policy());
    CHECK(setup.execution == "auto");
    CHECK(setup.notes.empty());
}

TEST_CASE("an unknown policy is the asker's key error, or the GPU file's when it is its default") {
    hw::GpuSpec gpu = hw::resolve_gpu("h100");
    CHECK_THROWS_AS(scheduler::resolve_run_setup(gpu, {.policy = "fastest"}), KeyError);
    gpu.default_policy = "fastest";
    CHECK_THROWS_WITH_AS(scheduler::resolve_run_setup(gpu, {}),
                         doctest::Contains("GPU 'h100': key 'defaults.policy': unknown policy 'fastest'"), InputError);
}

TEST_CASE("fewer SMs than the GPU before its what-ifs: a note says which SMs the run keeps") {
    const hw::GpuSpec h100 = hw::resolve_gpu("h100");
    const hw::GpuSpec sixteen = hw::with_sm_count(h100, 16);
    const auto setup = scheduler::resolve_run_setup(sixteen, {.before_what_ifs = &h100});
    REQUIRE(setup.notes.size() == 1);
    CHECK(setup.notes[0] == sixteen.name + " keeps " + hw::sm_count_rule(h100, 16) +
                                " (docs/gpu-spec.md, \"Fewer or more SMs\")");
    CHECK(scheduler::resolve_run_setup(h100, {.before_what_ifs = &h100}).notes.empty());  // same SM count
}

TEST_CASE("run_rule_notes: the set-up's notes, then the rules the work reads") {
    const hw::GpuSpec a100 = hw::resolve_gpu("a100");  // launch overheads by rule R10, defaults.policy by R15
    const auto app = workloads::application_from_specs({"synthetic:blocks=10,threads=128,duration=5us"});
    const auto setup = scheduler::resolve_run_setup(a100, {});
    REQUIRE(setup.notes.size() == 1);
    const auto notes = scheduler::run_rule_notes(setup, app, a100, "fixed");
    REQUIRE(notes.size() >= 2);
    CHECK(notes[0] == setup.notes[0]);
    CHECK(notes[1].find("overheads.kernel_launch_ns") != std::string::npos);
}
