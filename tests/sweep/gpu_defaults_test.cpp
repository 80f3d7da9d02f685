// Sweep points take a GPU file's defaults.policy and defaults.execution where they name no policy or exec, as simulate does.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/support/input_error.h"
#include "gpusched/sweep/point_runner.h"
#include "gpusched/sweep/sweep_runner.h"

using namespace gpusched;

namespace {

/// A folder holding rr.yaml: the c2075 preset stating defaults.policy `policy` and defaults.execution fixed.
std::filesystem::path gpu_folder(const std::string& policy) {
    const auto dir = std::filesystem::temp_directory_path() / ("gpusched_sweep_gpu_defaults_" + policy);
    std::filesystem::create_directories(dir);
    hw::GpuSpec gpu = hw::resolve_gpu("c2075");
    gpu.default_policy = policy;
    gpu.default_execution = "fixed";
    gpu.rules.erase("defaults.policy");
    std::ofstream(dir / "rr.yaml") << hw::to_yaml(gpu);
    return dir;
}

const char* const kStudy = R"(study: gpu-defaults
workloads:
  syn: "synthetic:blocks=20,threads=128,duration=2us"
points:
  - list:
      - {gpu: rr.yaml}
      - {gpu: rr.yaml, policy: most-room, exec: auto}
      - {gpu: c2075}
)";

}  // namespace

TEST_CASE("a point without policy or exec takes the GPU file's defaults; asked values win") {
    const auto dir = gpu_folder("round-robin");
    const sweep::Study study = sweep::parse_study(kStudy, "study.yaml", dir.string());
    sweep::check_study(study);
    std::ostringstream out;
    sweep::run_sweep(study, {}, out);
    const std::string csv = out.str();
    CHECK(csv.find("\n0,rr.yaml,round-robin,fixed,syn,fixed,") != std::string::npos);
    CHECK(csv.find("\n1,rr.yaml,most-room,auto,syn,") != std::string::npos);
    CHECK(csv.find("\n2,c2075,most-room,auto,syn,") != std::string::npos);  // the preset's defaults
    std::filesystem::remove_all(dir);
}

TEST_CASE("a GPU file whose defaults.policy the registry does not know fails the study check") {
    const auto dir = gpu_folder("fastest");
    const sweep::Study study = sweep::parse_study(kStudy, "study.yaml", dir.string());
    CHECK_THROWS_WITH_AS(sweep::check_study(study), doctest::Contains("key 'defaults.policy': unknown policy 'fastest'"),
                         InputError);
    std::filesystem::remove_all(dir);
}
