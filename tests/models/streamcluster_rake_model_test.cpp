// The CDS paper's rake-size model: its worked examples (eqs. 9 and 13) and its inputs from a GPU and a streamcluster spec.
#include <doctest/doctest.h>

#include "support/spec_checks.h"

#include "gpusched/hw/gpu_spec_io.h"
#include "gpusched/models/streamcluster_rake_model.h"
#include "gpusched/support/input_error.h"

using namespace gpusched;
using namespace gpusched::models;
using namespace gpusched::workloads;
using test::spec;

TEST_CASE("rake model: the paper's worked examples (eqs. 9 and 13)") {
    // Sect. IV-B: K 20, WI_app 51200, delta 1%, l 45 us, n 895, BW 1 GB/s:
    // 4 x 21 x 51200 / (0.01 x 45e-6 x 895 x 1e9) = 4300800 / 402750 = 10.68 -> a = 11.
    // GTX480: MP 15, MW 32: b = ceil(51200 / 15360) = 4 < a: search [4, 11].
    RakeModelInputs in;
    in.points = 51200;
    in.centers = 20;
    in.sms = 15;
    in.warps_per_sm = 32;
    in.latency_s = 45e-6;
    in.commands = 895;
    in.bandwidth_bytes_per_s = 1e9;
    const RakeModelResult r = rake_model(in);
    CHECK(r.a_bound == doctest::Approx(10.6786).epsilon(1e-4));
    CHECK(r.a == 11);
    CHECK(r.b == 4);
    CHECK(r.needs_search());
    // Sect. IV-A: WI_app 409600: b = ceil(409600 / 15360) = ceil(26.67) = 27.
    in.points = 409600;
    CHECK(rake_model(in).b == 27);
}

TEST_CASE("rake model inputs: MW from the occupancy calculator, l and BW from the GPU") {
    // GTX480, 512 threads, 23 registers: 23 x 32 = 736 -> 768 registers per warp, 12288 per block;
    // 32768 / 12288 = 2 blocks = 32 warps per SM, the paper's MW. b = ceil(409600 / (15 x 32 x 32)) = 27.
    hw::GpuSpec gpu = hw::resolve_gpu("gtx480");
    const KernelLaunch k = spec("streamcluster:points=409600,dims=16,threads=512,regs=23,calls=5");
    gpu.host_link_latency_ns.reset();  // the preset's is a rule (R16); without one the model cannot run
    CHECK_THROWS_WITH_AS(rake_model_inputs(gpu, k, 0.01), doctest::Contains("host_link.latency_ns"), InputError);
    gpu.host_link_latency_ns = 45000;
    const RakeModelInputs in = rake_model_inputs(gpu, k, 0.01);
    CHECK(in.warps_per_sm == 32);
    CHECK(in.sms == 15);
    CHECK(in.commands == 10);  // 5 calls x (work array, flags)
    CHECK(in.bandwidth_bytes_per_s == doctest::Approx(8e9));
    CHECK(in.latency_s == doctest::Approx(45e-6));
    CHECK(rake_model(in).b == 27);
    CHECK_THROWS_WITH_AS(rake_model_inputs(gpu, spec("streamcluster:points=10,dims=2,copy=none"), 0.01),
                         doctest::Contains("copy=none"), InputError);
    CHECK_THROWS_WITH_AS(rake_model_inputs(gpu, spec("synthetic:blocks=1,threads=32,duration=1us"), 0.01),
                         doctest::Contains("needs a streamcluster kernel"), InputError);
}
